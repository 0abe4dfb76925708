// Driven by scripts/bench-runtime-env.sh. In Node (V8, as Chromium): check() of the Ray
// and PyTorch examples on the demo catalog, with runtime envs read by the package's YAML
// module ("split", as shipped) against a build with the YAML reader inside ("whole").
import fs from "fs";
const [dir, root] = process.argv.slice(2);
const file = JSON.parse(fs.readFileSync(`${root}/shared/demo/catalog.json`));
// shared::demo::user(): the demo user the corpus is written for.
const cat = { catalog: file.catalog, usage: file.usage, user: { name: "alice", org: "Acme AI", tenant_id: "t-acme" } };
const ray = fs.readFileSync(`${root}/shared/examples/ray.json`, "utf8");
const pytorch = fs.readFileSync(`${root}/shared/examples/pytorch.json`, "utf8");
const load = async (name) => {
  const m = await import(`${dir}/${name}/berth_validator.js?${name}`);
  m.initSync({ module: fs.readFileSync(`${dir}/${name}/berth_validator_bg.wasm`) });
  return m;
};
const split = await load("split");
const whole = await load("whole");
const yaml = await import(`${dir}/split/berth_validator_yaml.js`);
yaml.initSync({ module: fs.readFileSync(`${dir}/split/berth_validator_yaml_bg.wasm`) });
split.useRuntimeEnvReader(yaml.readRuntimeEnv);
const vs = split.createValidator(cat.catalog, cat.user, cat.usage);
const vw = whole.createValidator(cat.catalog, cat.user, cat.usage);
for (const spec of [ray, pytorch]) {
  if (JSON.stringify(vs.check(spec)) !== JSON.stringify(vw.check(spec))) throw new Error("the builds answer differently");
}
const time = (f, n) => { const t = performance.now(); for (let i = 0; i < n; i++) f(); return (performance.now() - t) * 1000 / n; };
const variants = {
  "ray, whole": () => vw.check(ray), "ray, split": () => vs.check(ray),
  "pytorch, whole": () => vw.check(pytorch), "pytorch, split": () => vs.check(pytorch),
  "readRuntimeEnv alone": () => yaml.readRuntimeEnv(JSON.parse(ray).ray.runtime_env),
};
for (const f of Object.values(variants)) time(f, 500);
const samples = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (let r = 0; r < 9; r++) for (const [k, f] of Object.entries(variants)) samples[k].push(time(f, 3000));
const med = (xs) => [...xs].sort((a, b) => a - b)[4];
const m = Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, med(xs)]));
for (const [k, v] of Object.entries(m)) console.log(`${k}: ${v.toFixed(2)} µs`);
console.log(`ray split/whole: ${(m["ray, split"] / m["ray, whole"]).toFixed(3)}`);
console.log(`pytorch split/whole: ${(m["pytorch, split"] / m["pytorch, whole"]).toFixed(3)}`);
