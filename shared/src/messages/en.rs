//! English messages: one `(key, template)` pair per text, sorted by key.
//!
//! See the parent module for the key scheme and the `{name}` placeholders.

/// Every message, sorted by key.
pub(super) const MESSAGES: &[(&str, &str)] = &[
    ("advanced.alerts.target.email", "is not an email address"),
    ("advanced.alerts.target.url", "must be an https:// URL"),
    (
        "advanced.alerts.threshold.invalid",
        "set a threshold of at least 1",
    ),
    (
        "advanced.fault_tolerance.max_retries.out_of_range",
        "must be between 1 and 100",
    ),
    (
        "advanced.image_pull_retries.out_of_range",
        "must be -1 (never trip), 0 (fail at once) or a positive count",
    ),
    (
        "advanced.monitoring.path.invalid",
        "must start with '/', like /metrics",
    ),
    (
        "advanced.monitoring.port.master",
        "{port} is the master port; choose another",
    ),
    (
        "advanced.monitoring.port.out_of_range",
        "must be between 1 and 65535",
    ),
    (
        "advanced.monitoring.port.ray",
        "{port} is Ray's {name} port; choose another",
    ),
    (
        "advanced.monitoring.port.ssh",
        "22 is taken by pod SSH; choose another",
    ),
    (
        "advanced.ssh.single_pod",
        "the task has one pod; SSH between pods has no peer",
    ),
    (
        "basic.cluster.unknown",
        "is not a cluster of the chosen region; pick one from the list",
    ),
    (
        "basic.name_prefix.bad_end",
        "must end with a letter or digit",
    ),
    (
        "basic.name_prefix.bad_start",
        "must start with a lowercase letter",
    ),
    (
        "basic.name_prefix.invalid_chars",
        "use only lowercase letters, digits and '-'",
    ),
    (
        "basic.name_prefix.too_long",
        "is {len} characters; at most {max} fit for this task type and replica count",
    ),
    (
        "basic.project_group.not_member",
        "you are not a member of this project group; pick one of yours",
    ),
    (
        "basic.region.unknown",
        "is not a region you can use; pick one from the list",
    ),
    (
        "basic.tags.duplicate",
        "this tag key is already used; keep one",
    ),
    (
        "basic.tags.key.invalid",
        "use 1–63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit",
    ),
    (
        "basic.tags.key.reserved",
        "this prefix belongs to the platform or a scheduler; use your own prefix or none",
    ),
    (
        "basic.tags.not_maintained",
        "tag validation is on: choose one of the maintained tags",
    ),
    ("basic.tags.too_many", "at most {max} tags; remove some"),
    (
        "basic.tags.value.invalid",
        "use at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit",
    ),
    ("basic.time_zone.unknown", "is not a time zone in the list"),
    (
        "command.distributed_env_unused",
        "uses none of MASTER_ADDR, MASTER_PORT, WORLD_SIZE, RANK; every replica may train alone",
    ),
    ("command.too_long", "is longer than {kib} KiB"),
    (
        "command.torchrun.nnodes",
        "--nnodes is {written} but the task has {replicas} replicas; use \"$WORLD_SIZE\"",
    ),
    (
        "command.torchrun.nproc_per_node",
        "--nproc_per_node is {written} but one replica has {gpus} GPUs",
    ),
    (
        "compute.demand.overflow",
        "the resource demand is too large to compute",
    ),
    ("compute.gang.never_fits", "can never start: {reason}"),
    (
        "compute.gang.skipped",
        "skipped: it can never start here ({reason}); the next spec in the list is used",
    ),
    ("compute.gang.will_queue", "will queue: {reason}"),
    (
        "compute.idle.guarantee_not_allowed",
        "idle resources take no guarantee; clear it",
    ),
    (
        "compute.idle.priority_not_allowed",
        "idle resources take no priority; clear it",
    ),
    (
        "compute.kind.field_unused",
        "not used by {kind}; it is dropped on submit",
    ),
    (
        "compute.pool.availability_exceeded",
        "needs {requested} but the pool has {remaining} free now; the task will queue",
    ),
    (
        "compute.pool.kind_mismatch",
        "does not serve this resource kind; pick another pool",
    ),
    (
        "compute.pool.none_for_kind",
        "this cluster offers no pool for this resource kind; switch region, cluster or kind",
    ),
    (
        "compute.pool.unknown",
        "is not a pool of this cluster; pick one from the list",
    ),
    (
        "compute.quota.exceeded",
        "needs {requested} {unit} but {remaining} remain in your quota; {short} short",
    ),
    (
        "compute.quota.none",
        "you have no quota for this spec in this pool",
    ),
    (
        "compute.quota.skipped",
        "skipped: needs {short} of your {spec} quota; the next spec in the list is used",
    ),
    (
        "compute.quota.skipped#no_quota",
        "skipped: you have no quota for {spec} here; the next spec in the list is used",
    ),
    (
        "compute.quota.skipped.item",
        "{requested} {unit} ({remaining} left)",
    ),
    (
        "compute.spec.not_in_pool",
        "no node of the pool can run this spec; pick another spec or pool",
    ),
    (
        "compute.spec.type_mismatch",
        "is not a {type} spec; pick a {type} spec",
    ),
    (
        "compute.spec.unknown",
        "is not an instance spec of this cluster; pick one from the list",
    ),
    (
        "compute.specs.duplicate",
        "is already in the list; remove one",
    ),
    (
        "compute.specs.mixed_gpu_models",
        "mixes GPU models; choose only models your code supports",
    ),
    (
        "compute.spot.unavailable",
        "no spot instances are available in the current filter; switch region, cluster, resource kind or instance type",
    ),
    (
        "compute.units_per_node.out_of_range",
        "must be between 1 and {max}",
    ),
    (
        "compute.workers.out_of_range",
        "must be between 0 and {max}",
    ),
    (
        "datasets.unknown",
        "is not a dataset of this cluster; pick one from the list",
    ),
    ("env.name.duplicate", "is already defined above; keep one"),
    (
        "env.name.invalid",
        "use letters, digits and '_', not starting with a digit",
    ),
    (
        "env.name.platform_injected",
        "the platform sets this variable; its value replaces yours",
    ),
    (
        "env.name.reserved_prefix",
        "must not start with KUBERNETES_",
    ),
    (
        "env.name.shadows_persistent",
        "also a persistent env var; this task's value wins",
    ),
    ("env.value.nul", "holds a NUL character; remove it"),
    ("env.value.too_long", "is longer than {kib} KiB"),
    (
        "env.values.too_long",
        "all values together are {total_kib} KiB; at most {max_kib} KiB",
    ),
    ("field.advanced.alerts.channel.help", "Email or webhook."),
    ("field.advanced.alerts.channel.label", "Channel"),
    ("field.advanced.alerts.event.help", "What fires the alert."),
    ("field.advanced.alerts.event.label", "Event"),
    ("field.advanced.alerts.help", "Alerts set up with the task."),
    ("field.advanced.alerts.label", "Alert subscriptions"),
    (
        "field.advanced.alerts.target.help",
        "An email address, or an https:// URL that receives a POST.",
    ),
    ("field.advanced.alerts.target.label", "Target"),
    (
        "field.advanced.alerts.threshold.help",
        "Minutes queued or hours running, for the threshold events; at least 1.",
    ),
    ("field.advanced.alerts.threshold.label", "Threshold"),
    (
        "field.advanced.fault_tolerance.enabled.help",
        "Retry the task when it fails. Retries do not fix code, data paths or out-of-memory errors.",
    ),
    (
        "field.advanced.fault_tolerance.enabled.label",
        "Enable automatic fault tolerance",
    ),
    (
        "field.advanced.fault_tolerance.label",
        "Automatic fault tolerance",
    ),
    (
        "field.advanced.fault_tolerance.max_retries.help",
        "Attempts after the first, 1–100.",
    ),
    (
        "field.advanced.fault_tolerance.max_retries.label",
        "Max retries",
    ),
    (
        "field.advanced.image_pull_retries.help",
        "Image-pull failures tolerated: 0 fails at once, -1 never trips, a positive count sets this task's threshold; empty takes the default.",
    ),
    (
        "field.advanced.image_pull_retries.label",
        "Image pull fault tolerance",
    ),
    ("field.advanced.label", "Advanced options"),
    (
        "field.advanced.monitoring.enabled.help",
        "Collect your task's custom metrics; your code must serve them on the port and path.",
    ),
    (
        "field.advanced.monitoring.enabled.label",
        "Enable monitoring dashboard",
    ),
    ("field.advanced.monitoring.label", "Monitoring dashboard"),
    (
        "field.advanced.monitoring.path.help",
        "The HTTP path of the metrics, like /metrics.",
    ),
    ("field.advanced.monitoring.path.label", "Metrics path"),
    (
        "field.advanced.monitoring.port.help",
        "The port your code serves metrics on, 1–65535.",
    ),
    ("field.advanced.monitoring.port.label", "Metrics port"),
    (
        "field.advanced.ssh.help",
        "Password-less SSH between pods; node lists are written to /root/hostfile and /root/hostfile.hostname.",
    ),
    ("field.advanced.ssh.label", "Pod SSH"),
    (
        "field.basic.cluster.help",
        "A cluster of the chosen region; it decides the pools, images, volumes, datasets and models you can pick.",
    ),
    ("field.basic.cluster.label", "Cluster"),
    ("field.basic.label", "Basic information"),
    (
        "field.basic.name_prefix.help",
        "The task's name is this prefix plus a unique suffix. Use lowercase letters, digits and '-', starting with a letter and ending with a letter or digit.",
    ),
    ("field.basic.name_prefix.label", "Name prefix"),
    (
        "field.basic.project_group.help",
        "The project group the task belongs to, for resources and permissions.",
    ),
    ("field.basic.project_group.label", "Project group"),
    (
        "field.basic.region.help",
        "Where the task runs; it decides the pools, images, volumes, datasets and models you can pick.",
    ),
    ("field.basic.region.label", "Region"),
    (
        "field.basic.tags.help",
        "Tags to group, filter and audit tasks. When tag validation is on, pick maintained tags.",
    ),
    (
        "field.basic.tags.key.help",
        "1–63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit.",
    ),
    ("field.basic.tags.key.label", "Tag key"),
    ("field.basic.tags.label", "Tags"),
    (
        "field.basic.tags.value.help",
        "At most 63 letters, digits, '-', '_' or '.'; may be empty.",
    ),
    ("field.basic.tags.value.label", "Tag value"),
    (
        "field.basic.task_type.help",
        "PyTorchJob or RayJob; it decides the resources, how the task starts and the type-specific settings.",
    ),
    ("field.basic.task_type.label", "Task type"),
    (
        "field.basic.time_zone.help",
        "The time zone the task's logs and times are shown in.",
    ),
    ("field.basic.time_zone.label", "Time zone"),
    (
        "field.basic.visible_in_group.help",
        "Whether everyone in the project group sees the task; otherwise usually only its owner does.",
    ),
    (
        "field.basic.visible_in_group.label",
        "Visible in project group",
    ),
    (
        "field.compute.accept_idle.help",
        "Reserved only: also run on idle capacity.",
    ),
    ("field.compute.accept_idle.label", "Accept idle resources"),
    (
        "field.compute.guarantee.help",
        "A steadier guarantee for key or long training. Idle resources take no guarantee.",
    ),
    ("field.compute.guarantee.label", "Resource guarantee"),
    (
        "field.compute.head_spec.help",
        "RayJob only. Every replica, the head included, needs its spec's unit × units per node; the head uses this spec when set, else the workers'.",
    ),
    ("field.compute.head_spec.label", "Head instance spec"),
    (
        "field.compute.idle_stability.help",
        "How long idle capacity is expected to stay; required for idle resources and accepted idle.",
    ),
    ("field.compute.idle_stability.label", "Idle stability level"),
    ("field.compute.instance_type.help", "GPU or CPU specs."),
    ("field.compute.instance_type.label", "Instance type"),
    (
        "field.compute.kind.help",
        "Reserved, on-demand, spot or idle: it decides the specs you can pick, quota checks, guarantees and the risk of interruption.",
    ),
    ("field.compute.kind.label", "Resource kind"),
    ("field.compute.label", "Compute"),
    (
        "field.compute.pool.help",
        "The pool the task runs in: a shared or dedicated pool for reserved instances.",
    ),
    ("field.compute.pool.label", "Resource pool"),
    (
        "field.compute.prefer_idle.help",
        "Reserved with idle accepted: use idle capacity first.",
    ),
    ("field.compute.prefer_idle.label", "Prefer idle"),
    (
        "field.compute.priority.help",
        "Queue order is priority, then submit time. Idle resources take no priority.",
    ),
    ("field.compute.priority.label", "Resource priority"),
    (
        "field.compute.specs.help",
        "Specs in priority order, highest first; the first that fits is used. Pick only specs your code supports.",
    ),
    ("field.compute.specs.label", "Instance specs"),
    (
        "field.compute.units_per_node.help",
        "Every replica, the RayJob head included, needs its spec's unit × units per node. The head uses its own spec when set, else the workers'.",
    ),
    ("field.compute.units_per_node.label", "Units per node"),
    (
        "field.compute.workers.help",
        "Worker replicas besides the master (PyTorchJob) or head (RayJob); 0 trains on one machine. Every replica is scheduled at once.",
    ),
    ("field.compute.workers.label", "Workers"),
    (
        "field.environment.command.help",
        "Run with bash -c when the container starts. A PyTorchJob can use the injected MASTER_ADDR, MASTER_PORT, WORLD_SIZE and RANK; a RayJob's command is the Ray entrypoint, like python main.py.",
    ),
    ("field.environment.command.label", "Command"),
    (
        "field.environment.datasets.help",
        "Datasets your script reads, mounted read-only.",
    ),
    (
        "field.environment.datasets.id.help",
        "A dataset of this cluster.",
    ),
    ("field.environment.datasets.id.label", "Dataset"),
    ("field.environment.datasets.label", "Datasets"),
    (
        "field.environment.datasets.path.help",
        "Absolute path in the container; prefer a directory under /volume or /mnt.",
    ),
    ("field.environment.datasets.path.label", "Mount path"),
    (
        "field.environment.env.help",
        "Variables for this task only: paths, parameters, switches or credentials. Same name as a persistent env var: this task's value wins.",
    ),
    (
        "field.environment.env.hidden.help",
        "Others who see a shared task read the value masked.",
    ),
    ("field.environment.env.hidden.label", "Hidden"),
    ("field.environment.env.label", "Environment variables"),
    (
        "field.environment.env.name.help",
        "Letters, digits and '_', not starting with a digit or with KUBERNETES_.",
    ),
    ("field.environment.env.name.label", "Name"),
    ("field.environment.env.value.help", "The variable's value."),
    ("field.environment.env.value.label", "Value"),
    (
        "field.environment.image.help",
        "A built-in image, a custom image or an image address. It must hold the framework and dependencies your script needs; a RayJob needs an image with Ray.",
    ),
    ("field.environment.image.label", "Image"),
    (
        "field.environment.image.source.help",
        "Built-in, custom or an image address.",
    ),
    ("field.environment.image.source.label", "Image source"),
    (
        "field.environment.image.value.help",
        "The image from the list, or an address like registry/repo:tag.",
    ),
    ("field.environment.image.value.label", "Image"),
    ("field.environment.label", "Environment"),
    (
        "field.environment.models.help",
        "Models for fine-tuning, further training or evaluation, mounted read-only.",
    ),
    (
        "field.environment.models.id.help",
        "A model of this cluster.",
    ),
    ("field.environment.models.id.label", "Model"),
    ("field.environment.models.label", "Models"),
    (
        "field.environment.models.path.help",
        "Absolute path in the container; prefer a directory under /volume or /mnt.",
    ),
    ("field.environment.models.path.label", "Mount path"),
    (
        "field.environment.storage.help",
        "Volumes for code, checkpoints, outputs and model files, each at a mount path in the pod. A volume mounts at one path once.",
    ),
    (
        "field.environment.storage.id.help",
        "A volume of this cluster.",
    ),
    ("field.environment.storage.id.label", "Volume"),
    ("field.environment.storage.label", "Storage"),
    (
        "field.environment.storage.path.help",
        "Absolute path in the container; prefer a directory under /volume or /mnt.",
    ),
    ("field.environment.storage.path.label", "Mount path"),
    (
        "field.ray.autoscaling.enabled.help",
        "Let Ray change the worker count with the load.",
    ),
    ("field.ray.autoscaling.enabled.label", "Autoscaling"),
    (
        "field.ray.autoscaling.idle_timeout_secs.help",
        "Seconds a worker stays idle before it is removed.",
    ),
    (
        "field.ray.autoscaling.idle_timeout_secs.label",
        "Idle timeout",
    ),
    ("field.ray.autoscaling.label", "Autoscaling"),
    (
        "field.ray.autoscaling.max_workers.help",
        "Most workers; quota and scheduling count this many.",
    ),
    ("field.ray.autoscaling.max_workers.label", "Max workers"),
    (
        "field.ray.autoscaling.min_workers.help",
        "Fewest workers; needs min ≤ workers ≤ max.",
    ),
    ("field.ray.autoscaling.min_workers.label", "Min workers"),
    (
        "field.ray.autoscaling.upscaling_mode.help",
        "Default, aggressive or conservative.",
    ),
    (
        "field.ray.autoscaling.upscaling_mode.label",
        "Upscaling mode",
    ),
    (
        "field.ray.debug.enabled.help",
        "Keep the Ray cluster after the job ends, to look into the head pod.",
    ),
    ("field.ray.debug.enabled.label", "Debug mode"),
    (
        "field.ray.debug.keep_secs.help",
        "How long to keep the cluster, 1–86400 seconds.",
    ),
    ("field.ray.debug.keep_secs.label", "Keep cluster for"),
    ("field.ray.debug.label", "Debug mode"),
    ("field.ray.label", "RayJob settings"),
    (
        "field.ray.runtime_env.help",
        "Ray runtime env as YAML, for dependencies and env vars; leave empty for none.",
    ),
    ("field.ray.runtime_env.label", "Runtime Env"),
    (
        "field.ray.shared_storage.clean_on_exit.help",
        "Delete this task's data on the shared volume when it ends; keep it to debug, but watch the space.",
    ),
    (
        "field.ray.shared_storage.clean_on_exit.label",
        "Clean shared storage on exit",
    ),
    (
        "field.ray.shared_storage.enabled.help",
        "Mount one volume at /tmp/ray in every pod to share checkpoints, logs and intermediate results.",
    ),
    (
        "field.ray.shared_storage.enabled.label",
        "Mount shared storage",
    ),
    ("field.ray.shared_storage.label", "Shared storage"),
    (
        "field.ray.shared_storage.volume.help",
        "A volume many pods can write (RWX).",
    ),
    ("field.ray.shared_storage.volume.label", "Shared volume"),
    (
        "field.version.help",
        "The spec format version; this build reads version 1.",
    ),
    ("field.version.label", "Spec version"),
    (
        "image.address.invalid",
        "is not an image reference like registry/repo:tag or registry/repo@sha256:…",
    ),
    (
        "image.pytorch.missing",
        "has no PyTorch; a PyTorchJob needs a PyTorch image",
    ),
    (
        "image.ray.missing",
        "has no Ray runtime; a RayJob needs a Ray image",
    ),
    (
        "image.ray.unverified",
        "cannot verify the Ray runtime of an image address; make sure it has Ray",
    ),
    (
        "image.ray_dashboard.missing",
        "lacks the Ray Dashboard dependencies; the dashboard will be limited",
    ),
    (
        "image.unknown",
        "is not an image of this cluster; pick one from the list",
    ),
    ("list.and", " and "),
    ("list.sep", ", "),
    (
        "models.unknown",
        "is not a model of this cluster; pick one from the list",
    ),
    (
        "mount.path.conflict",
        "{other} is mounted at the same path; choose another path",
    ),
    (
        "mount.path.hides_ssh_hostfile",
        "hides /root/hostfile that pod SSH writes; prefer /volume or /mnt",
    ),
    (
        "mount.path.invalid_chars",
        "must not contain ':' or control characters",
    ),
    (
        "mount.path.nested",
        "lies inside the mount at {parent}; one hides part of the other",
    ),
    (
        "mount.path.not_absolute",
        "must be an absolute path starting with '/'",
    ),
    (
        "mount.path.not_normalized",
        "must not contain '..', '.', '//' or end with '/'",
    ),
    (
        "mount.path.outside_recommended",
        "paths under /volume or /mnt are recommended",
    ),
    (
        "mount.path.ray_reserved",
        "/tmp/ray is taken by the RayJob shared storage",
    ),
    ("mount.path.root", "cannot mount at '/'"),
    (
        "mount.path.shadows_image",
        "hides the image's files under {dir}; prefer /volume or /mnt",
    ),
    ("mount.path.system", "cannot mount over /proc, /sys or /dev"),
    (
        "never.head_too_large",
        "the head needs {need} {unit}; the largest node has {largest_total}",
    ),
    (
        "never.no_matching_node",
        "no node of the pool has {gpu_model} GPUs",
    ),
    (
        "never.no_matching_node#cpu",
        "no node of the pool is a CPU node",
    ),
    (
        "never.pool_too_small",
        "even when empty the pool holds {capacity} of {replicas} replicas at once",
    ),
    (
        "never.replica_too_large",
        "one replica needs {need} {unit}; the largest node has {largest_total}",
    ),
    ("quantity", "{amount} {unit}"),
    (
        "queue.head_has_no_room",
        "the largest free node has {largest_free} {unit}; the head needs {need}",
    ),
    (
        "queue.no_node_hosts_one",
        "the largest free node has {largest_free} {unit}; one replica needs {need}",
    ),
    (
        "queue.not_enough_at_once",
        "free nodes can host {placeable} of {replicas} replicas at once",
    ),
    (
        "ray.autoscaling.range",
        "needs min ≤ workers ≤ max; now {min} ≤ {workers} ≤ {max}",
    ),
    (
        "ray.debug.keep_secs.out_of_range",
        "must be between 1 and 86400 seconds",
    ),
    (
        "ray.runtime_env.alias",
        "YAML anchors and aliases (&name, *name) are not accepted; write the values out",
    ),
    (
        "ray.runtime_env.env_vars",
        "env_vars must map names to string values; quote values like yes or 8",
    ),
    (
        "ray.runtime_env.invalid_yaml",
        "is not valid YAML: {detail}",
    ),
    (
        "ray.runtime_env.key_not_string",
        "every key must be a string; quote keys like null, true or 1",
    ),
    (
        "ray.runtime_env.not_mapping",
        "must be a YAML mapping of keys to settings",
    ),
    (
        "ray.runtime_env.pip_and_conda",
        "Ray refuses pip and conda together; keep one",
    ),
    (
        "ray.runtime_env.tag",
        "Ray's YAML loader refuses the tag {tag}; remove it",
    ),
    ("ray.runtime_env.too_long", "is longer than {kib} KiB"),
    (
        "ray.runtime_env.unknown_key",
        "Ray does not know the key '{key}'",
    ),
    (
        "ray.shared_storage.not_rwx",
        "shared storage needs a volume many pods can write (RWX)",
    ),
    ("ray_port.client", "client"),
    ("ray_port.dashboard", "dashboard"),
    ("ray_port.dashboard_agent", "dashboard agent"),
    ("ray_port.gcs", "GCS"),
    ("ray_port.metrics_export", "metrics export"),
    ("ray_port.own", "own"),
    ("resource_kind.idle", "idle resources"),
    ("resource_kind.on_demand", "on-demand instances"),
    ("resource_kind.reserved", "reserved instances"),
    ("resource_kind.spot", "spot instances"),
    ("shape.expected.boolean", "true or false"),
    ("shape.expected.integer", "a whole number (may be negative)"),
    ("shape.expected.list", "a list"),
    ("shape.expected.number", "a number"),
    ("shape.expected.object", "an object"),
    ("shape.expected.one_of", "one of: {options}"),
    ("shape.expected.text", "text"),
    ("shape.expected.whole_number", "a whole number"),
    ("shape.found.list", "a list"),
    ("shape.found.number", "the number {value}"),
    ("shape.found.object", "an object"),
    ("shape.found.text", "the text \"{value}\""),
    (
        "spec.version.unsupported",
        "spec version {found} is not supported; use version {supported}",
    ),
    (
        "storage.duplicate",
        "this volume is already mounted at this path; remove one",
    ),
    (
        "storage.none",
        "no volume: the local disk is lost when the task ends; mount one for outputs and checkpoints",
    ),
    (
        "storage.volume.rwo_multi_pod",
        "attaches to one node only (RWO) but the task has {pods} pods; use an RWX volume",
    ),
    (
        "storage.volume.unknown",
        "is not a volume of this cluster; pick one from the list",
    ),
    ("ui.app.load_failed", "Could not load the catalog: {detail}"),
    ("ui.app.loading", "Loading the catalog…"),
    ("ui.app.not_found", "There is no page at {path}."),
    ("ui.detail.back", "All tasks"),
    ("ui.detail.title", "Task {name}"),
    ("ui.form.add.advanced.alerts", "Add an alert"),
    ("ui.form.add.basic.tags", "Add a tag"),
    ("ui.form.add.compute.specs", "Add a spec"),
    ("ui.form.add.environment.datasets", "Add a dataset"),
    ("ui.form.add.environment.env", "Add an env var"),
    ("ui.form.add.environment.models", "Add a model"),
    ("ui.form.add.environment.storage", "Add a volume"),
    ("ui.form.choose", "Choose…"),
    ("ui.form.count.errors", "{count} errors"),
    ("ui.form.count.hints", "{count} hints"),
    ("ui.form.count.warnings", "{count} warnings"),
    ("ui.form.draft_restored", "Your unsent draft was restored."),
    ("ui.form.export.json", "Export JSON"),
    ("ui.form.export.yaml", "Export YAML"),
    ("ui.form.fix_errors", "fix the errors to submit"),
    (
        "ui.form.image_pull_retries.default",
        "Empty: the platform default, {default}.",
    ),
    ("ui.form.import.button", "Import"),
    (
        "ui.form.import.documents",
        "Found {count} YAML documents; a spec is exactly one.",
    ),
    ("ui.form.import.label", "Paste a spec as YAML or JSON"),
    (
        "ui.form.import.not_plain",
        "Only plain YAML is read: text keys, no aliases.",
    ),
    (
        "ui.form.import.shape",
        "Not imported: {count} fields are of the wrong shape.",
    ),
    ("ui.form.import.syntax", "Not imported: {detail}"),
    ("ui.form.import.title", "Import a spec"),
    (
        "ui.form.name_pattern",
        "Final name: {pattern} · prefix {length} of at most {max} characters",
    ),
    (
        "ui.form.name_pattern#no_type",
        "Final name: {pattern} · choose the task type to see the maximum length",
    ),
    ("ui.form.option.alert_channel.email", "Email"),
    ("ui.form.option.alert_channel.webhook", "Webhook"),
    ("ui.form.option.alert_event.failed", "Failed"),
    (
        "ui.form.option.alert_event.queued_longer_than",
        "Queued longer than N minutes",
    ),
    ("ui.form.option.alert_event.retried", "Retried"),
    (
        "ui.form.option.alert_event.running_longer_than",
        "Running longer than N hours",
    ),
    ("ui.form.option.alert_event.stopped", "Stopped"),
    ("ui.form.option.alert_event.succeeded", "Succeeded"),
    ("ui.form.option.guarantee.false", "Off"),
    ("ui.form.option.guarantee.true", "On"),
    ("ui.form.option.image_source.address", "Image address"),
    ("ui.form.option.image_source.built_in", "Built-in"),
    ("ui.form.option.image_source.custom", "Custom"),
    ("ui.form.option.instance_type.cpu", "CPU"),
    ("ui.form.option.instance_type.gpu", "GPU"),
    ("ui.form.option.priority.high", "High"),
    ("ui.form.option.priority.low", "Low"),
    ("ui.form.option.priority.normal", "Normal"),
    ("ui.form.option.sharing.dedicated", "dedicated"),
    ("ui.form.option.sharing.shared", "shared"),
    ("ui.form.option.stability.high", "High"),
    ("ui.form.option.stability.low", "Low"),
    ("ui.form.option.stability.medium", "Medium"),
    ("ui.form.option.upscaling.aggressive", "Aggressive"),
    ("ui.form.option.upscaling.conservative", "Conservative"),
    ("ui.form.option.upscaling.default", "Default"),
    (
        "ui.form.plan.bar.pool",
        "Pool: {demand} of {left} free {unit}",
    ),
    (
        "ui.form.plan.bar.quota",
        "Quota: {demand} of {left} {unit} left",
    ),
    ("ui.form.plan.fragment", "{nodes} nodes × {units} units"),
    (
        "ui.form.plan.idle",
        "Idle {spec}: {quantity} units, stability {stability}, fragments {fragments}",
    ),
    (
        "ui.form.plan.no_quota_needed",
        "This resource kind uses no quota.",
    ),
    (
        "ui.form.plan.outcome.blocked",
        "Cannot start: no spec is within quota and able to fit. See the errors.",
    ),
    (
        "ui.form.plan.outcome.now",
        "Starts now with {spec} on {nodes} node(s).",
    ),
    (
        "ui.form.plan.outcome.queue",
        "Will queue as a whole for {spec}: {reason}.",
    ),
    (
        "ui.form.plan.pending",
        "Choose a cluster, resource kind and instance spec to see where the task would run.",
    ),
    ("ui.form.plan.per_replica", "one replica: {amount}"),
    ("ui.form.plan.replicas", "{replicas} replicas · pool {pool}"),
    ("ui.form.plan.title", "Quota and scheduling"),
    ("ui.form.plan.used", "(would be used)"),
    ("ui.form.plan.verdict.never", "can never fit: {reason}"),
    (
        "ui.form.plan.verdict.no_quota",
        "skipped: no quota for {spec}",
    ),
    (
        "ui.form.plan.verdict.now",
        "fits now on {spec}, {nodes} node(s)",
    ),
    (
        "ui.form.plan.verdict.over_quota",
        "skipped: over quota by {shortfall}",
    ),
    ("ui.form.plan.verdict.queue", "will queue: {reason}"),
    ("ui.form.prefix_placeholder", "<prefix>"),
    (
        "ui.form.preview.title",
        "Preview: the spec that will be submitted (YAML)",
    ),
    (
        "ui.form.pytorch.injected",
        "Every pod gets {names} (master port {port}); use them in the command.",
    ),
    (
        "ui.form.pytorch.pods",
        "{replicas} replicas: the master {master}",
    ),
    ("ui.form.pytorch.title", "PyTorchJob"),
    ("ui.form.pytorch.workers", "and workers {first} … {last}."),
    ("ui.form.ready", "ready to submit"),
    ("ui.form.remove_row", "Remove {row}"),
    ("ui.form.severity.error", "error"),
    ("ui.form.severity.info", "hint"),
    ("ui.form.severity.warning", "warning"),
    ("ui.form.specs.down", "Move spec {rank} down"),
    ("ui.form.specs.remove", "Remove spec {rank}"),
    (
        "ui.form.specs.reorder_help",
        "Reorder with the arrows, Alt+↑/Alt+↓, or by dragging.",
    ),
    ("ui.form.specs.up", "Move spec {rank} up"),
    ("ui.form.start_over", "Start over"),
    ("ui.form.submit", "Submit"),
    ("ui.form.submitting", "Submitting…"),
    (
        "ui.form.summary",
        "{errors} errors · {warnings} warnings · {hints} hints",
    ),
    ("ui.form.summary_title", "Findings"),
    ("ui.form.title", "Create training task"),
    ("ui.list.new", "Create task"),
    ("ui.list.title", "Training tasks"),
    ("ui.phase.deleted", "Deleted"),
    ("ui.phase.failed", "Failed"),
    ("ui.phase.queued", "Queued"),
    ("ui.phase.retrying", "Retrying"),
    ("ui.phase.running", "Running"),
    ("ui.phase.scheduling", "Scheduling"),
    ("ui.phase.stopped", "Stopped"),
    ("ui.phase.succeeded", "Succeeded"),
    (
        "ui.shared.read_only",
        "This is a read-only view shared with you.",
    ),
    ("ui.shared.title", "Shared task {name} (read-only)"),
    ("ui.widget.title", "Embedded task form"),
    ("ui.widget.validator", "Validator"),
    ("unit.gpu", "GPUs"),
    ("unit.memory_gib", "GiB of memory"),
    ("unit.vcpu", "vCPUs"),
    ("value.invalid", "has the wrong type: expected {expected}"),
    (
        "value.invalid#found",
        "has the wrong type: expected {expected}, found {found}",
    ),
    ("value.invalid#json", "is not valid JSON: {detail}"),
    (
        "value.invalid#known_field",
        "is not a known field; fields here: {options}",
    ),
    ("value.required", "is required"),
];
