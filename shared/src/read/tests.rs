use super::*;

/// The demo catalog file (read here without the `demo` feature).
const CATALOG_FILE: &str = include_str!("../../demo/catalog.json");

/// The demo catalog file as the derived readers read it (before this module replaced
/// them), written out by the derived `Serialize`, which is unchanged.
const DEMO_AS_DERIVES_READ_IT: &str = include_str!("demo_catalog_file.json");

fn read_err<T: Read + fmt::Debug>(json: &str) -> String {
    let mut value: Tape<'_> = serde_json::from_str(json).expect("test input is JSON");
    T::read(value.json()).expect_err(json).to_string()
}

#[test]
fn the_demo_catalog_file_reads_as_the_derives_read_it() {
    let file = CatalogFile::from_json(CATALOG_FILE).expect("the demo catalog loads");
    let expected: serde_json::Value = serde_json::from_str(DEMO_AS_DERIVES_READ_IT).unwrap();
    assert_eq!(serde_json::to_value(&file).unwrap(), expected);
    // And through `Deserialize`, as the server's callers and the console's client read.
    let via_serde: CatalogFile = serde_json::from_str(CATALOG_FILE).unwrap();
    assert_eq!(via_serde, file);
    let catalog: Catalog = serde_json::from_value(expected["catalog"].clone()).unwrap();
    assert_eq!(catalog, file.catalog);
}

#[test]
fn a_key_twice_is_refused_and_the_first_wrong_entry_in_the_text_is_named() {
    assert_eq!(
        read_err::<Catalog>(r#"{"regions": [{"id": "a", "id": "b"}]}"#),
        "regions[0]: duplicate field `id`"
    );
    // As the derive read it: in the text's order, so `colour` before `clusters`' error.
    assert_eq!(
        read_err::<Region>(r#"{"colour": 1, "clusters": 2}"#),
        "unknown field `colour`, expected one of `id`, `name`, `clusters`"
    );
    assert_eq!(
        read_err::<Region>(r#"{"clusters": 2, "colour": 1}"#),
        "clusters: invalid type: the number 2, expected a list"
    );
}

/// Only the spec's findings read past unknown fields (`crate::parse_spec`): a catalog,
/// and a spec read otherwise (a stored task's, in a server's answer), stop at the first,
/// as `deny_unknown_fields` did, on a thread that has just read past some too.
#[test]
fn only_the_specs_findings_read_past_unknown_fields() {
    let spec = r#"{"foo": 1, "basic": {"bar": 2}, "baz": 3}"#;
    assert_eq!(crate::parse_spec(spec).unwrap_err().issues().len(), 3);
    let many: Vec<String> = (0..30).map(|i| format!("\"x{i}\": 0")).collect();
    let many = format!("{{{}}}", many.join(", "));
    assert_eq!(crate::parse_spec(&many).unwrap_err().issues().len(), 21);
    assert!(
        from_json::<crate::TaskSpec>(spec)
            .unwrap_err()
            .to_string()
            .starts_with("unknown field `foo`, expected one of `version`"),
    );
    assert_eq!(
        read_err::<Region>(r#"{"colour": 1, "size": 2}"#),
        "unknown field `colour`, expected one of `id`, `name`, `clusters`"
    );
}

#[test]
fn absent_fields_take_each_types_default() {
    assert_eq!(Catalog::from_json("{}").unwrap(), Catalog::default());
    assert_eq!(from_json::<User>("{}").unwrap(), User::default());
    assert_eq!(from_json::<Usage>("{}").unwrap(), Usage::default());
    let catalog = Catalog::from_json(r#"{"regions": [{"clusters": [{"id": "c"}]}]}"#).unwrap();
    let cluster = &catalog.regions[0].clusters[0];
    assert_eq!(cluster.id, "c");
    // KubeSettings' own default, not a field-by-field one: namespace `default`.
    assert_eq!(cluster.kubernetes.namespace, "default");
    assert_eq!(cluster.kubernetes, KubeSettings::default());
    let node: Node = from_json(r#"{"name": "n", "gpu_model": null}"#).unwrap();
    assert_eq!(node.gpu_model, None);
    let offer: IdleOffer =
        from_json(r#"{"spec": "s", "stability": "low", "quantity": 2}"#).unwrap();
    assert_eq!(offer.fragments, []);
}

#[test]
fn admission_reads_its_tag_anywhere_and_its_variants_fields() {
    let read = |json: &str| from_json::<Admission>(json).map_err(|e| e.to_string());
    assert_eq!(read(r#"{"scheduler": "none"}"#), Ok(Admission::None));
    assert_eq!(
        read(r#"{"local_queue": "q", "scheduler": "kueue"}"#),
        Ok(Admission::Kueue {
            local_queue: "q".into()
        })
    );
    assert_eq!(
        read(r#"{"scheduler": "volcano", "queue": "v"}"#),
        Ok(Admission::Volcano { queue: "v".into() })
    );
    // As the derive read it: a unit variant ignores the other fields.
    assert_eq!(
        read(r#"{"scheduler": "none", "x": 1}"#),
        Ok(Admission::None)
    );
    for (json, expected) in [
        (r#"{"local_queue": "q"}"#, "missing field `scheduler`"),
        (r#"{"scheduler": "kueue"}"#, "missing field `local_queue`"),
        (
            r#"{"scheduler": "kueue", "local_queue": "q", "x": 1}"#,
            "unknown field `x`, expected one of `local_queue`",
        ),
        (
            r#"{"scheduler": "slurm"}"#,
            "scheduler: unknown variant `slurm`, expected one of `none`, `kueue`, `volcano`",
        ),
        (
            r#"{"scheduler": "volcano", "queue": 3}"#,
            "queue: invalid type: the number 3, expected a string",
        ),
        (
            r#"["kueue", "q"]"#,
            "invalid type: a list, expected an object",
        ),
    ] {
        assert_eq!(read(json), Err(expected.to_owned()), "{json}");
    }
}

#[test]
fn each_refusal_names_the_place_and_what_was_expected() {
    for (json, expected) in [
        (
            r#"{"regions": [{"clusters": [{}, {"pools": [{}, {}, {"nodes": [{"gpu_model": 3}]}]}]}]}"#,
            "regions[0].clusters[1].pools[2].nodes[0].gpu_model: invalid type: the number 3, expected a string or null",
        ),
        (
            r#"{"regions": [{"colour": "red"}]}"#,
            "regions[0]: unknown field `colour`, expected one of `id`, `name`, `clusters`",
        ),
        (
            r#"{"time_zone": ["UTC"]}"#,
            "unknown field `time_zone`, expected one of `regions`, `project_groups`, `tags`, \
             `persistent_env`, `time_zones`, `image_pull_retries_default`, `quotas`",
        ),
        (
            r#"{"regions": [{"clusters": [{"idle": [{"spec": "s", "stability": "low"}]}]}]}"#,
            "regions[0].clusters[0].idle[0]: missing field `quantity`",
        ),
        (
            r#"{"regions": [{"clusters": [{"idle": [{"spec": "s", "stability": "often", "quantity": 1}]}]}]}"#,
            "regions[0].clusters[0].idle[0].stability: unknown variant `often`, expected one of `low`, `medium`, `high`",
        ),
        (
            r#"{"regions": [{"clusters": [{"pools": [{"nodes": [{"total": {"gpu": 2.0}}]}]}]}]}"#,
            "regions[0].clusters[0].pools[0].nodes[0].total.gpu: invalid type: a decimal number, \
             expected a whole number from 0 to 18446744073709551615",
        ),
        (
            r#"{"regions": [{"clusters": [{"pools": [{"nodes": [{"total": {"vcpu": -1}}]}]}]}]}"#,
            "regions[0].clusters[0].pools[0].nodes[0].total.vcpu: invalid type: the number -1, \
             expected a whole number from 0 to 18446744073709551615",
        ),
        (
            r#"{"regions": [{"clusters": [{"specs": [{"max_units_per_node": 4294967296}]}]}]}"#,
            "regions[0].clusters[0].specs[0].max_units_per_node: invalid type: the number 4294967296, \
             expected a whole number from 0 to 4294967295",
        ),
        (
            r#"{"regions": [{"clusters": [{"pools": [{"nodes": [{"labels": {"zone": 1}}]}]}]}]}"#,
            "regions[0].clusters[0].pools[0].nodes[0].labels.zone: invalid type: the number 1, expected a string",
        ),
        (
            r#"{"regions": [{"clusters": [{"pools": [{"nodes": [{"labels": null}]}]}]}]}"#,
            "regions[0].clusters[0].pools[0].nodes[0].labels: invalid type: null, expected an object",
        ),
        (
            r#"{"regions": [{"clusters": [{"pools": [{"sharing": ["shared"]}]}]}]}"#,
            "regions[0].clusters[0].pools[0].sharing: invalid type: a list, expected one of `shared`, `dedicated`",
        ),
        (
            r#"{"quotas": [{"kind": "free"}]}"#,
            "quotas[0].kind: unknown variant `free`, expected one of `reserved`, `on_demand`, `spot`, `idle`",
        ),
        (
            r#"{"quotas": [{"kind": 1}]}"#,
            "quotas[0].kind: invalid type: the number 1, expected one of `reserved`, `on_demand`, `spot`, `idle` or null",
        ),
        (
            r#"{"tags": {"validation": "yes"}}"#,
            "tags.validation: invalid type: a string, expected true or false",
        ),
        (
            r#"{"tags": {"maintained": [{"key": "a", "colour": "b"}]}}"#,
            "tags.maintained[0]: unknown field `colour`, expected one of `key`, `value`",
        ),
        (
            r#"{"image_pull_retries_default": "3"}"#,
            "image_pull_retries_default: invalid type: a string, \
             expected a whole number from -9223372036854775808 to 9223372036854775807",
        ),
        (
            r#"{"regions": {"id": "r"}}"#,
            "regions: invalid type: an object, expected a list",
        ),
        ("[]", "invalid type: a list, expected an object"),
    ] {
        assert_eq!(read_err::<Catalog>(json), expected, "{json}");
    }
    assert_eq!(
        read_err::<User>(r#"{"name": "a", "team": "b"}"#),
        "unknown field `team`, expected one of `name`, `org`, `tenant_id`"
    );
    assert_eq!(
        read_err::<User>(r#"["alice", "org", "t"]"#),
        "invalid type: a list, expected an object",
        "serde's by-position form of a struct is refused: no Berth side writes it"
    );
    assert_eq!(
        read_err::<Usage>(r#"{"nodes": {"n-1": {"gpu": true}}}"#),
        "nodes.n-1.gpu: invalid type: a boolean, expected a whole number from 0 to 18446744073709551615"
    );
    assert_eq!(
        read_err::<Usage>(
            r#"{"quota": [{"user": "a", "kind": "spot", "pool": "p", "spec": "s"}]}"#
        ),
        "quota[0]: missing field `used`"
    );
    assert_eq!(
        read_err::<CatalogFile>(r#"{"catalog": {"regions": [{"name": null}]}}"#),
        "catalog.regions[0].name: invalid type: null, expected a string"
    );
}

#[test]
fn serde_callers_get_the_same_reading_and_words() {
    let text = r#"{"catalog": {"regions": [], "time_zone": ["UTC"]}}"#;
    let by_serde = serde_json::from_str::<CatalogFile>(text)
        .unwrap_err()
        .to_string();
    let by_loader = CatalogFile::from_json(text).unwrap_err().to_string();
    assert_eq!(by_serde, by_loader);
    assert!(
        by_serde.starts_with("catalog: unknown field `time_zone`"),
        "{by_serde}"
    );
    // Syntax errors are serde_json's, with their line and column.
    let syntax = CatalogFile::from_json("{\n  \"catalog\": }").unwrap_err();
    assert_eq!((syntax.line(), syntax.is_syntax()), (2, true), "{syntax}");
}

/// Generated values of every type this module reads, kept small (proptest is native only).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod arbitrary {
    use super::*;
    use crate::task::Tag;
    use proptest::collection::{btree_map, vec};
    use proptest::option;
    use proptest::prelude::*;

    fn text() -> impl Strategy<Value = String> {
        // Escapes, non-ASCII and the empty string included.
        "[a-z0-9\"\\\\/ 华东é-]{0,6}"
    }

    fn resources() -> impl Strategy<Value = Resources> {
        (any::<u64>(), any::<u64>(), any::<u64>()).prop_map(|(g, c, m)| Resources::new(g, c, m))
    }

    /// Also the spec's generators' (`validate::parse`).
    pub(crate) fn kind() -> impl Strategy<Value = ResourceKind> {
        prop_oneof![
            Just(ResourceKind::Reserved),
            Just(ResourceKind::OnDemand),
            Just(ResourceKind::Spot),
            Just(ResourceKind::Idle),
        ]
    }

    pub(crate) fn stability() -> impl Strategy<Value = IdleStability> {
        prop_oneof![
            Just(IdleStability::Low),
            Just(IdleStability::Medium),
            Just(IdleStability::High),
        ]
    }

    pub(super) fn user() -> impl Strategy<Value = User> {
        (text(), text(), text()).prop_map(|(name, org, tenant_id)| User {
            name,
            org,
            tenant_id,
        })
    }

    fn node() -> impl Strategy<Value = Node> {
        (
            text(),
            option::of(text()),
            resources(),
            btree_map(text(), text(), 0..3),
        )
            .prop_map(|(name, gpu_model, total, labels)| Node {
                name,
                gpu_model,
                total,
                labels,
            })
    }

    fn pool() -> impl Strategy<Value = Pool> {
        (
            text(),
            text(),
            prop_oneof![Just(Sharing::Shared), Just(Sharing::Dedicated)],
            vec(kind(), 0..3),
            vec(node(), 0..3),
        )
            .prop_map(|(id, name, sharing, kinds, nodes)| Pool {
                id,
                name,
                sharing,
                kinds,
                nodes,
            })
    }

    fn spec() -> impl Strategy<Value = InstanceSpec> {
        (
            text(),
            text(),
            prop_oneof![Just(InstanceType::Gpu), Just(InstanceType::Cpu)],
            option::of(text()),
            resources(),
            any::<u32>(),
        )
            .prop_map(
                |(id, name, instance_type, gpu_model, per_unit, max_units_per_node)| InstanceSpec {
                    id,
                    name,
                    instance_type,
                    gpu_model,
                    per_unit,
                    max_units_per_node,
                },
            )
    }

    fn image() -> impl Strategy<Value = Image> {
        (
            text(),
            text(),
            prop_oneof![
                Just(ImageSource::BuiltIn),
                Just(ImageSource::Custom),
                Just(ImageSource::Address)
            ],
            text(),
            vec(text(), 0..3),
        )
            .prop_map(|(id, name, source, address, capabilities)| Image {
                id,
                name,
                source,
                address,
                capabilities,
            })
    }

    fn data_item() -> impl Strategy<Value = DataItem> {
        (text(), text(), text()).prop_map(|(id, name, version)| DataItem { id, name, version })
    }

    fn idle() -> impl Strategy<Value = IdleOffer> {
        (
            text(),
            stability(),
            any::<u32>(),
            vec(
                (any::<u32>(), any::<u32>())
                    .prop_map(|(nodes, units)| IdleFragment { nodes, units }),
                0..3,
            ),
        )
            .prop_map(|(spec, stability, quantity, fragments)| IdleOffer {
                spec,
                stability,
                quantity,
                fragments,
            })
    }

    fn kubernetes() -> impl Strategy<Value = KubeSettings> {
        (
            text(),
            prop_oneof![
                Just(Admission::None),
                text().prop_map(|local_queue| Admission::Kueue { local_queue }),
                text().prop_map(|queue| Admission::Volcano { queue }),
            ],
            (option::of(text()), option::of(text()), option::of(text())),
            prop_oneof![Just(Scrape::Annotations), Just(Scrape::PodMonitor)],
        )
            .prop_map(|(namespace, admission, (low, normal, high), monitoring)| {
                KubeSettings {
                    namespace,
                    admission,
                    priority_classes: PriorityClasses { low, normal, high },
                    monitoring,
                }
            })
    }

    fn cluster() -> impl Strategy<Value = Cluster> {
        (
            (text(), text(), vec(pool(), 0..3), vec(spec(), 0..3)),
            (
                vec(image(), 0..3),
                vec(
                    (
                        text(),
                        text(),
                        prop_oneof![
                            Just(AccessMode::ReadWriteOnce),
                            Just(AccessMode::ReadWriteMany)
                        ],
                        any::<u64>(),
                    )
                        .prop_map(|(id, name, access_mode, capacity_gib)| {
                            Volume {
                                id,
                                name,
                                access_mode,
                                capacity_gib,
                            }
                        }),
                    0..3,
                ),
                vec(data_item(), 0..2),
                vec(data_item(), 0..2),
            ),
            (vec(idle(), 0..3), kubernetes()),
        )
            .prop_map(
                |(
                    (id, name, pools, specs),
                    (images, volumes, datasets, models),
                    (idle, kubernetes),
                )| Cluster {
                    id,
                    name,
                    pools,
                    specs,
                    images,
                    volumes,
                    datasets,
                    models,
                    idle,
                    kubernetes,
                },
            )
    }

    pub(super) fn catalog() -> impl Strategy<Value = Catalog> {
        let region = (text(), text(), vec(cluster(), 0..3))
            .prop_map(|(id, name, clusters)| Region { id, name, clusters });
        let group = (text(), text(), vec(text(), 0..3))
            .prop_map(|(id, name, members)| ProjectGroup { id, name, members });
        let tags = (
            any::<bool>(),
            vec(
                (text(), text()).prop_map(|(key, value)| Tag { key, value }),
                0..3,
            ),
        )
            .prop_map(|(validation, maintained)| TagPolicy {
                validation,
                maintained,
            });
        let env =
            (text(), text(), text(), any::<bool>()).prop_map(|(user, name, value, hidden)| {
                PersistentEnvVar {
                    user,
                    name,
                    value,
                    hidden,
                }
            });
        let quota = (text(), option::of(kind()), text(), text(), resources()).prop_map(
            |(user, kind, pool, spec, limit)| Quota {
                user,
                kind,
                pool,
                spec,
                limit,
            },
        );
        (
            vec(region, 0..3),
            vec(group, 0..3),
            tags,
            vec(env, 0..3),
            vec(text(), 0..3),
            any::<i64>(),
            vec(quota, 0..3),
        )
            .prop_map(
                |(
                    regions,
                    project_groups,
                    tags,
                    persistent_env,
                    time_zones,
                    image_pull_retries_default,
                    quotas,
                )| Catalog {
                    regions,
                    project_groups,
                    tags,
                    persistent_env,
                    time_zones,
                    image_pull_retries_default,
                    quotas,
                },
            )
    }

    pub(super) fn usage() -> impl Strategy<Value = Usage> {
        let line = (text(), kind(), text(), text(), resources()).prop_map(
            |(user, kind, pool, spec, used)| QuotaUse {
                user,
                kind,
                pool,
                spec,
                used,
            },
        );
        (btree_map(text(), resources(), 0..3), vec(line, 0..3))
            .prop_map(|(nodes, quota)| Usage { nodes, quota })
    }
}

#[cfg(not(target_arch = "wasm32"))]
proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    #[test]
    fn what_berth_writes_reads_back_equal(
        catalog in arbitrary::catalog(),
        user in arbitrary::user(),
        usage in arbitrary::usage(),
    ) {
        let text = serde_json::to_string(&catalog).unwrap();
        proptest::prop_assert_eq!(&Catalog::from_json(&text).unwrap(), &catalog);
        proptest::prop_assert_eq!(&serde_json::from_str::<Catalog>(&text).unwrap(), &catalog);
        let text = serde_json::to_string(&user).unwrap();
        proptest::prop_assert_eq!(serde_json::from_str::<User>(&text).unwrap(), user);
        let text = serde_json::to_string(&usage).unwrap();
        proptest::prop_assert_eq!(&serde_json::from_str::<Usage>(&text).unwrap(), &usage);
        // Pretty-printed, as files are written by hand, and nested in the catalog file.
        let file = CatalogFile { catalog, usage };
        let text = serde_json::to_string_pretty(&file).unwrap();
        proptest::prop_assert_eq!(from_json::<CatalogFile>(&text).unwrap(), file);
    }
}
