//! English messages: one `(key, template)` pair per text, sorted by key.
//!
//! See the parent module for the key scheme and the `{name}` placeholders.

/// Every message, sorted by key.
pub(super) const MESSAGES: &[(&str, &str)] = &[
    (
        "advanced.alerts.duplicate",
        "this subscription is already listed; keep one",
    ),
    ("advanced.alerts.target.email", "is not an email address"),
    (
        "advanced.alerts.target.masked",
        "is the mask of a URL; type it",
    ),
    (
        "advanced.alerts.target.spaces",
        "starts or ends with a space",
    ),
    (
        "advanced.alerts.target.url",
        "must be an https:// URL in ASCII (a host as xn--…, other text %-escaped) of at most 2048 characters",
    ),
    (
        "advanced.alerts.threshold.invalid",
        "set a threshold that is a whole number, at least 1",
    ),
    (
        "advanced.alerts.threshold.unused",
        "this event takes no threshold and ignores it; remove the threshold",
    ),
    (
        "advanced.alerts.too_many",
        "at most {max} alert subscriptions; remove some",
    ),
    (
        "advanced.fault_tolerance.max_retries.out_of_range",
        "must be a whole number between 1 and 100",
    ),
    (
        "advanced.image_pull_retries.out_of_range",
        "must be -1 (never trip), 0 (fail at once) or a positive count",
    ),
    (
        "advanced.monitoring.path.invalid",
        "must be a URL path starting with '/', like /metrics, of ASCII letters, digits and -._~!$&'()*+,;=:@/ only, of at most 1024 characters",
    ),
    (
        "advanced.monitoring.port.master",
        "{port} is the master port; choose another",
    ),
    (
        "advanced.monitoring.port.out_of_range",
        "must be a whole number between 1 and 65535",
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
        "must end with a lowercase letter or digit, not '-'",
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
        "use at most 63 characters, a prefix counted: letters, digits, '-', '_' or '.', a letter or digit at each end, after an optional lowercase domain and '/'",
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
    (
        "basic.task_type.ray_unused",
        "a PyTorchJob does not use the spec's Ray settings or head spec; they are dropped on submit",
    ),
    ("basic.time_zone.unknown", "is not a time zone in the list"),
    (
        "command.distributed_env_unused",
        "uses none of MASTER_ADDR, MASTER_PORT, WORLD_SIZE, RANK; every replica may train alone",
    ),
    (
        "command.nul",
        "holds a NUL character, which no process can start with; remove it",
    ),
    (
        "command.pasted_char",
        "line {line} has {char}, which the shell does not read as a quote, a dash, a space or a line's end (pasted text brings it): type it again",
    ),
    ("command.too_long", "is longer than {kib} KiB"),
    (
        "command.torchrun.nnodes",
        "--nnodes is {written} but the task has {replicas} replicas; use \"$WORLD_SIZE\"",
    ),
    (
        "command.torchrun.nnodes_one",
        "--nnodes is {written} but the task has 1 replica; use \"$WORLD_SIZE\"",
    ),
    (
        "command.torchrun.nproc_per_node",
        "--nproc_per_node is {written} but one replica has {gpus} GPUs",
    ),
    (
        "command.torchrun.nproc_per_node_one",
        "--nproc_per_node is {written} but one replica has 1 GPU",
    ),
    (
        "compute.demand.overflow",
        "the resource demand is too large to compute",
    ),
    ("compute.gang.never_fits", "can never start: {reason}"),
    (
        "compute.gang.skipped",
        "skipped: it can never start here ({reason}); another spec of the list is used",
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
        "compute.pool.availability_exceeded#idle",
        "needs {requested} but idle capacity at the chosen stability or above has {remaining} now; the task will queue",
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
        "skipped: needs {short} of your {spec} quota; another spec of the list is used",
    ),
    (
        "compute.quota.skipped#no_quota",
        "skipped: you have no quota for {spec} here; another spec of the list is used",
    ),
    (
        "compute.quota.skipped.item",
        "{requested} {unit} ({remaining} left, {short} short)",
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
        "must be a whole number between 1 and {max}, the most {spec} takes per node",
    ),
    (
        "compute.units_per_node.out_of_range#no_max",
        "must be a whole number, at least 1",
    ),
    (
        "compute.units_per_node.out_of_range#one",
        "must be 1, the most {spec} takes per node",
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
        "env.name.overrides_time_zone",
        "a TZ env var (the task's or a persistent one) overrides the time zone {zone}; its value wins",
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
    (
        "env.value.masked",
        "is the mask of a hidden value, not the value (drafts and others' copies keep no hidden value); type the value",
    ),
    ("env.value.nul", "holds a NUL character; remove it"),
    (
        "env.value.stray_blank",
        "begins or ends with a space, or has an invisible character (a pasted non-breaking, full-width or zero-width space): remove it unless your program needs it",
    ),
    ("env.value.too_long", "is longer than {kib} KiB"),
    (
        "env.values.too_long",
        "all values together are {total} bytes; at most {max} ({max_kib} KiB)",
    ),
    ("event.accepted", "quota held; waiting for its turn"),
    (
        "event.accepted#idle",
        "accepted; it starts on idle capacity, which holds no quota",
    ),
    (
        "event.accepted#no_quota",
        "waiting for its turn (its resource kind uses no quota)",
    ),
    (
        "event.admitted",
        "attempt {attempt} on {nodes} nodes with {spec}",
    ),
    (
        "event.admitted#head",
        "attempt {attempt} on {nodes} nodes with {spec}, the head with {head}",
    ),
    (
        "event.admitted#head_one",
        "attempt {attempt} on 1 node with {spec}, the head with {head}",
    ),
    (
        "event.admitted#head_only",
        "attempt {attempt} on 1 node, the head alone with {head}: {on}",
    ),
    (
        "event.admitted#head_placed",
        "attempt {attempt} on {nodes} nodes with {spec}, the head with {head}: {on}",
    ),
    (
        "event.admitted#head_placed_one",
        "attempt {attempt} on 1 node with {spec}, the head with {head}: {on}",
    ),
    (
        "event.admitted#placed",
        "attempt {attempt} on {nodes} nodes with {spec}: {on}",
    ),
    (
        "event.admitted#placed_one",
        "attempt {attempt} on 1 node with {spec}: {on}",
    ),
    ("event.admitted.on", "{workers}"),
    (
        "event.admitted.on#head",
        "the head on {head}; workers on {workers}",
    ),
    (
        "event.admitted.on#head_more",
        "the head on {head}; workers on {workers} and {more} more nodes",
    ),
    (
        "event.admitted.on#head_more_one",
        "the head on {head}; workers on {workers} and 1 more node",
    ),
    ("event.admitted.on#head_only", "the head on {head}"),
    ("event.admitted.on#more", "{workers} and {more} more nodes"),
    ("event.admitted.on#more_one", "{workers} and 1 more node"),
    ("event.admitted.on.nodes", "{node}, {rest}"),
    ("event.admitted.on.share", "{node} ×{replicas}"),
    (
        "event.admitted.quota_released#idle",
        "quota hold given back: it runs on idle capacity, which holds no quota",
    ),
    (
        "event.admitted_one",
        "attempt {attempt} on 1 node with {spec}",
    ),
    ("event.alert.error.answered", "it answered {status}"),
    ("event.alert.error.no_answer", "no answer in {seconds} s"),
    (
        "event.alert.error.not_tls",
        "it answers in plain HTTP at that address and port, not HTTPS: give the port where it takes HTTPS",
    ),
    ("event.alert.error.other", "{detail}"),
    (
        "event.alert.error.refused",
        "the connection was refused: nothing takes connections at that address and port",
    ),
    (
        "event.alert.error.unknown_host",
        "its host name is not known: check the address",
    ),
    (
        "event.alert.error.untrusted",
        "its certificate is not one this server trusts: a company's own CA goes in alerts_ca",
    ),
    (
        "event.alert.failed",
        "\"{event}\" not delivered to {target}: {error}",
    ),
    (
        "event.alert.mail.body",
        "Berth alert \"{event}\" for task {task}:\n{message}\n\nYou get this mail because the task subscribes {target} to this alert.",
    ),
    (
        "event.alert.mail.subject",
        "[Berth] alert \"{event}\" for task {task}",
    ),
    (
        "event.alert.no_email",
        "\"{event}\" not sent to {target}: this server sends no email (it calls webhooks)",
    ),
    (
        "event.alert.no_relay",
        "\"{event}\" not sent to {target}: this server has no mail relay configured (--smtp-host)",
    ),
    (
        "event.alert.overdue.queued_longer_than",
        "queued for more than {n} minutes",
    ),
    (
        "event.alert.overdue.queued_longer_than_one",
        "queued for more than a minute",
    ),
    (
        "event.alert.overdue.running_longer_than",
        "running for more than {n} hours",
    ),
    (
        "event.alert.overdue.running_longer_than_one",
        "running for more than an hour",
    ),
    ("event.alert.sent", "\"{event}\" sent to {target}"),
    ("event.cannot_start", "cannot start: {error}"),
    (
        "event.catalog_changed",
        "the catalog no longer has where this task runs (its region, cluster, pool or spec), so it can never start",
    ),
    (
        "event.catalog_changed#cluster",
        "the catalog no longer has cluster {cluster}, where this task runs, so it can no longer run",
    ),
    (
        "event.catalog_changed#never",
        "as the catalog now has them, no spec of this task fits its pool or its quota, even with nothing else running, so it can never start",
    ),
    (
        "event.catalog_changed#pool",
        "the catalog no longer has pool {pool} for this task's resource kind, so it can no longer run",
    ),
    (
        "event.catalog_changed#region",
        "the catalog no longer has region {region}, where this task runs, so it can no longer run",
    ),
    (
        "event.catalog_changed#spec",
        "this task's cluster no longer sells instance spec {spec}, so it can no longer run",
    ),
    (
        "event.debug.cluster_kept",
        "the Ray cluster is kept for {secs} s after the job's end, to look into the head pod; KubeRay deletes it then",
    ),
    (
        "event.debug.no_cluster",
        "no Ray cluster is kept: this server's local backend runs the entrypoint without one; its output stays in replica 0's log (the entrypoint's)",
    ),
    (
        "event.exited",
        "attempt {attempt}: replica {replica} ended with {how}",
    ),
    (
        "event.exited#role",
        "attempt {attempt}: replica {replica} ({role}) ended with {how}",
    ),
    ("event.failed", "{reason}"),
    (
        "event.failed#after_retries",
        "after {attempts} attempts; the last: {reason}",
    ),
    (
        "event.failed#after_retries_one",
        "after 1 attempt: {reason}",
    ),
    (
        "event.hold_given_back",
        "your quota for its spec was lowered below what your tasks ahead of it hold, so it holds none of it now; it starts once your quota has room",
    ),
    ("event.how.code", "exit code {code}"),
    (
        "event.how.code#126",
        "exit code 126 (the command could not be run: not executable)",
    ),
    ("event.how.code#127", "exit code 127 (command not found)"),
    (
        "event.how.code#137",
        "exit code 137 (killed, most often for running out of memory)",
    ),
    ("event.how.code#139", "exit code 139 (a segmentation fault)"),
    ("event.how.signal", "exit code {code} (signal {signal})"),
    (
        "event.how.signal#11",
        "exit code 139 (signal 11, a segmentation fault)",
    ),
    (
        "event.how.signal#15",
        "exit code 143 (signal 15, asked to stop, as Berth asks a replica when its task is stopped or another replica failed)",
    ),
    (
        "event.how.signal#6",
        "exit code 134 (signal 6, aborted, most often after a failed assertion)",
    ),
    (
        "event.how.signal#9",
        "exit code 137 (signal 9, killed: most often for running out of memory)",
    ),
    (
        "event.how.signal#9_berth",
        "exit code 137 (signal 9, killed by Berth: it had not ended within its grace period after it was asked to stop)",
    ),
    ("event.how.unknown", "an unknown end"),
    (
        "event.idle_node",
        "idle node {node} of {spec}, stability {stability}, in {cluster}",
    ),
    (
        "event.kube.cleanup.deleted",
        "Job {job}: {state}: deleted; the {place} may remain",
    ),
    (
        "event.kube.cleanup.failed",
        "Job {job}: failed: {why}: the {place} remains",
    ),
    (
        "event.kube.cleanup.gone",
        "Job {job}: deleted before it ended: the {place} may remain",
    ),
    (
        "event.kube.cleanup.gone_since",
        "Job {job}: {state}, and gone since: the {place} may remain",
    ),
    (
        "event.kube.cleanup.not_created",
        "Job {job}: cannot be created ({error}): the {place} remains",
    ),
    (
        "event.kube.cleanup.place",
        "directory {dir} of volume claim {claim} in namespace {namespace}",
    ),
    (
        "event.kube.cleanup.removed",
        "Job {job}: removed the {place}",
    ),
    (
        "event.kube.cleanup.still_runs",
        "RayJob {task}: still runs after the task's end: its {place} is not cleaned up",
    ),
    (
        "event.kube.cleanup.unadmitted",
        "not admitted by Kueue after {secs} s (still suspended)",
    ),
    (
        "event.kube.cleanup.undeletable",
        "Job {job}: {state}, and cannot be deleted ({error}): the {place} may remain",
    ),
    (
        "event.kube.cleanup.under_way",
        "Job {job} removes the {place}; its end is told here",
    ),
    ("event.kube.cleanup.unended", "not ended after {secs} s"),
    (
        "event.kube.cleanup.unknown",
        "RayJob {task}: cannot tell whether it still runs ({error}): its {place} is not cleaned up",
    ),
    ("event.kube.cluster", "{object}: {what}"),
    (
        "event.kube.evicted",
        "evicted by Kueue: the job is suspended (waiting for admission again)",
    ),
    (
        "event.kube.evicted#detail",
        "evicted by Kueue: the job is suspended (waiting for admission again): {detail}",
    ),
    (
        "event.kube.job_deleted",
        "the job {job} was deleted outside Berth",
    ),
    (
        "event.kube.pull_breaker",
        "the image of pod {pod} container {container} could not be pulled {count} times, more than the retries allowed ({retries}): {what}",
    ),
    (
        "event.kube.pull_breaker_one",
        "the image of pod {pod} container {container} could not be pulled once, more than the retries allowed ({retries}): {what}",
    ),
    (
        "event.kube.pull_failure",
        "pod {pod} container {container}: image pull failure {count}: {what}",
    ),
    (
        "event.kube.suspended",
        "the job is suspended (waiting for admission)",
    ),
    (
        "event.kube.suspended#detail",
        "the job is suspended (waiting for admission): {detail}",
    ),
    ("event.note", "attempt {attempt}: {note}"),
    ("event.queued", "{reason}"),
    ("event.replica_ended", "replica {replica} ended with {how}"),
    (
        "event.replica_ended#role",
        "replica {replica} ({role}) ended with {how}",
    ),
    ("event.replica_role.head", "head"),
    ("event.replica_role.master", "master"),
    ("event.replica_role.submitter", "submitter"),
    ("event.replica_role.submitter#alone", "the entrypoint"),
    ("event.replica_role.worker", "worker {i}"),
    ("event.replica_role.worker#ray", "worker {i}"),
    (
        "event.retrying",
        "attempt {attempt} failed ({reason}); retry {attempt} of {max_retries}",
    ),
    (
        "event.retrying#backoff",
        "attempt {attempt} failed ({reason}); retry {attempt} of {max_retries} starts {secs} s after it at the earliest",
    ),
    (
        "event.retrying#backoff_reruns",
        "attempt {attempt} failed ({reason}); retry {retry} of {max_retries} (re-runs after the server stopped are not counted) starts {secs} s after it at the earliest",
    ),
    (
        "event.retrying#reruns",
        "attempt {attempt} failed ({reason}); retry {retry} of {max_retries} (re-runs after the server stopped are not counted)",
    ),
    (
        "event.retrying.waits",
        "waiting before its retry: the next attempt starts at {at} at the earliest",
    ),
    (
        "event.runtime_env.unapplied",
        "this server (the local backend) runs no Ray cluster and does not apply the runtime env's {keys}: only its env_vars reach the job's processes",
    ),
    ("event.server_stopped", "the server stopped while it ran"),
    (
        "event.server_stopped#ended",
        "attempt {attempt}: every replica ended while the server was stopped, as each recorded",
    ),
    (
        "event.server_stopped#ended_rest",
        "attempt {attempt}: the replicas still running ended while the server was stopped, as each recorded",
    ),
    (
        "event.server_stopped#no_tolerance",
        "the server stopped while it ran; fault tolerance is off, so it is not re-run",
    ),
    (
        "event.server_stopped#requeued",
        "the server stopped while the task was starting; it goes back to the queue (this uses none of its retries)",
    ),
    (
        "event.server_stopped#rerun",
        "the server stopped while it ran; re-running it (fault tolerance is on; this uses none of its retries)",
    ),
    (
        "event.server_stopped#reruns_used",
        "its run was cut short again by a server stopping (or another taking the lead) while it ran or started, as {reruns} of its runs were before: it is not run again, in case the task is what stops the server (by using up the machine's memory, say)",
    ),
    (
        "event.server_stopped#retries_used",
        "the server stopped while it ran, and it has used its retries",
    ),
    (
        "event.server_stopped#taken_back",
        "attempt {attempt}: the restarted server took its job back; the job ran on while the server was stopped",
    ),
    ("event.started", "attempt {attempt}: every replica started"),
    ("event.stopped", "by a user"),
    (
        "event.stopped#before_rerun",
        "by a user while it waited to run again",
    ),
    ("event.stopped#before_start", "by a user before it started"),
    (
        "event.stopping",
        "a user asked to stop it; its replicas are being ended",
    ),
    ("event.succeeded", "every replica ended well"),
    ("field.advanced.alerts.channel.help", "Email or webhook."),
    ("field.advanced.alerts.channel.label", "Channel"),
    ("field.advanced.alerts.event.help", "What fires the alert."),
    ("field.advanced.alerts.event.label", "Event"),
    (
        "field.advanced.alerts.help",
        "Alerts set up with the task: each sends an email, or a POST to an https:// URL.",
    ),
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
    ("field.advanced.alerts.threshold.label", "Threshold N"),
    (
        "field.advanced.fault_tolerance.enabled.help",
        "Retry or recover the task when it fails, for PyTorchJob and RayJob alike. Retries do not fix code, data paths or out-of-memory errors.",
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
        "Collect your task's custom metrics; your code must serve them on the port and path; they appear once the task is running.",
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
        "The port your code serves metrics on, 1–65535; not a port the job itself uses (PyTorchJob's 23456, Ray's 6379, 8265, 10001, 8080 and 52365, and 22 with SSH on).",
    ),
    ("field.advanced.monitoring.port.label", "Metrics port"),
    (
        "field.advanced.ssh.help",
        "Password-less SSH between pods; node lists are written to /root/hostfile and /root/hostfile.hostname (not for a RayJob on Kubernetes, whose pod names are generated: it gets SSH alone). It works in common systems (Ubuntu) and images (NGC); if it fails in yours, contact support.",
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
        "Tags to group, filter and audit tasks; at most 20, each key once. When tag validation is on, every tag must be a maintained one.",
    ),
    (
        "field.basic.tags.key.help",
        "1–63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit, after an optional lowercase DNS prefix and '/' (example.com/team).",
    ),
    ("field.basic.tags.key.label", "Tag key"),
    ("field.basic.tags.label", "Tags"),
    (
        "field.basic.tags.value.help",
        "At most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit; may be empty.",
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
        "Reserved only: the task may also start on idle capacity when the reserved pool has no room; idle capacity uses no quota, but may be interrupted.",
    ),
    ("field.compute.accept_idle.label", "Accept idle resources"),
    (
        "field.compute.guarantee.help",
        "Choose a steadier guarantee by resource kind: for key or long training, or tasks costly to recover. Idle resources take no guarantee. Note: Berth keeps the choice with the task, but its scheduling gives no stronger guarantee for it yet.",
    ),
    ("field.compute.guarantee.label", "Resource guarantee"),
    (
        "field.compute.head_spec.help",
        "RayJob only. Every replica, the head included, needs its spec's unit × units per node; the head uses this spec when set, else the workers'.",
    ),
    ("field.compute.head_spec.label", "Head instance spec"),
    (
        "field.compute.idle_stability.help",
        "How long idle capacity is expected to stay: required for idle resources; with reserved instances accepting idle, leave it empty for any level.",
    ),
    ("field.compute.idle_stability.label", "Idle stability level"),
    (
        "field.compute.instance_type.help",
        "GPU or CPU, then the specs from the list; each spec's option shows one unit's GPUs, vCPUs and memory.",
    ),
    ("field.compute.instance_type.label", "Instance type"),
    (
        "field.compute.kind.help",
        "Reserved, on-demand, spot or idle: it decides the specs you can pick, quota checks, guarantees and the risk of interruption.",
    ),
    ("field.compute.kind.label", "Resource kind"),
    ("field.compute.label", "Compute"),
    (
        "field.compute.pool.help",
        "The pool the task runs in: a shared or dedicated pool, required for reserved instances; other kinds run in the cluster's pool for their kind when it is left empty.",
    ),
    ("field.compute.pool.label", "Resource pool"),
    (
        "field.compute.prefer_idle.help",
        "Reserved with idle accepted: use idle capacity first.",
    ),
    ("field.compute.prefer_idle.label", "Prefer idle"),
    (
        "field.compute.priority.help",
        "Queue order is priority, then submit time; left unset, Normal. Idle resources take no priority.",
    ),
    ("field.compute.priority.label", "Resource priority"),
    (
        "field.compute.specs.help",
        "Specs in priority order, highest first; the first that fits is used. Pick only specs your code supports.",
    ),
    ("field.compute.specs.label", "Instance specs"),
    (
        "field.compute.units_per_node.help",
        "Every replica, the RayJob head included, needs its spec's unit × units per node: at least 1, and at most what one node of every chosen spec hosts. The head uses its own spec when set, else the workers'.",
    ),
    ("field.compute.units_per_node.label", "Units per node"),
    (
        "field.compute.workers.help",
        "Worker replicas besides the master (PyTorchJob) or head (RayJob), 0–1024; 0 trains on one machine. Every replica is scheduled at once. A RayJob's workers are one worker group, of one spec.",
    ),
    ("field.compute.workers.label", "Workers"),
    (
        "field.environment.command.help",
        "Run with bash -c when the container starts. A PyTorchJob can use the injected MASTER_ADDR, MASTER_PORT, WORLD_SIZE and RANK; a RayJob's command is the Ray entrypoint, like python main.py. At most 64 KiB.",
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
    (
        "field.environment.env.value.help",
        "The variable's value: at most 32 KiB, and 256 KiB for all values together.",
    ),
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
        "Volumes for code, checkpoints, outputs and model files, each at a mount path in the pod. The same volume cannot be mounted twice at one path.",
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
        "Most workers, up to 1024; quota and scheduling count this many.",
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
        "How long to keep the Ray cluster after the job ends, 1–86400 seconds; 600 by default.",
    ),
    ("field.ray.debug.keep_secs.label", "Keep cluster for"),
    ("field.ray.debug.label", "Debug mode"),
    ("field.ray.label", "RayJob settings"),
    (
        "field.ray.runtime_env.help",
        "Ray runtime env as a YAML mapping (at most 64 KiB, no aliases or custom tags, not both pip and conda), for dependencies and env vars; leave empty for none.",
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
        "takes the place of what pod SSH writes in /root (its keys in /root/.ssh, the node lists /root/hostfile); prefer /volume or /mnt",
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
        "must not have '.' or '..' segments or '//', nor end with '/'",
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
    (
        "mount.path.ssh_read_only",
        "lies inside {dir}, which pod SSH mounts read-only: the pod cannot start; choose another path",
    ),
    (
        "mount.path.ssh_read_only#above",
        "is read-only and holds {dir}, where pod SSH mounts: the pod cannot start; choose another path",
    ),
    (
        "mount.path.stray_blank",
        "has an invisible character (a pasted zero-width space), or a space at the start or end of a name (a non-breaking or full-width one too): remove it, or the volume is mounted at another path than the one your job writes to",
    ),
    ("mount.path.system", "cannot mount over /proc, /sys or /dev"),
    (
        "mount.path.too_long",
        "is too long for Linux: 255 bytes at most between slashes, 4,095 in all",
    ),
    (
        "never.head_too_large",
        "the head needs {need} {unit}; the largest node has {largest_total}",
    ),
    (
        "never.head_too_large#mixed",
        "no node of the pool has all the head needs at once, even empty",
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
        "never.pool_too_small_one",
        "even when empty the pool holds {capacity} of 1 replica at once",
    ),
    (
        "never.replica_too_large",
        "one replica needs {need} {unit}; the largest node has {largest_total}",
    ),
    (
        "never.replica_too_large#mixed",
        "no node of the pool has all one replica needs at once, even empty",
    ),
    (
        "node.idle",
        "node {node} of idle offer {offer} in {cluster}",
    ),
    ("quantity", "{amount} {unit}"),
    ("queue.blocked", "no spec of the list can be used now"),
    (
        "queue.blocked#never",
        "no spec of the list can ever fit in its pool as the catalog has it now; stop the task and choose another spec or pool",
    ),
    (
        "queue.blocked#no_quota",
        "there is no quota now for any spec of the list in its pool; it waits until quota is granted, or stop it and choose another pool or spec",
    ),
    (
        "queue.blocked#quota",
        "every spec of the list is over the remaining quota now; it waits until other tasks free enough or the quota is raised",
    ),
    (
        "queue.capacity_changed",
        "capacity changed while it was placed",
    ),
    ("queue.error", "cannot be placed now: {error}"),
    (
        "queue.head_has_no_room",
        "the largest free node has {largest_free} {unit}; the head needs {need}",
    ),
    (
        "queue.head_has_no_room#mixed",
        "no node has all the head needs free at once",
    ),
    (
        "queue.no_idle_offer",
        "no idle capacity of {spec} is offered at the chosen stability or above",
    ),
    (
        "queue.no_idle_offer#also",
        "{reason}; nor is idle capacity of {spec} free now at stability {level} or above",
    ),
    (
        "queue.no_idle_offer#also_any",
        "{reason}; nor is idle capacity of {spec} free now at any stability",
    ),
    (
        "queue.no_idle_offer#also_short",
        "{reason}; nor can the idle capacity of {spec} offered now hold it",
    ),
    (
        "queue.no_idle_offer#lower",
        "no idle capacity of {spec} is offered at the chosen stability or above; it would start now at a lower one: {level}",
    ),
    (
        "queue.no_node_hosts_one",
        "the largest free node has {largest_free} {unit}; one replica needs {need}",
    ),
    (
        "queue.no_node_hosts_one#mixed",
        "no node has all one replica needs free at once",
    ),
    ("queue.none_free", "no node has a free {unit}"),
    (
        "queue.not_enough_at_once",
        "free nodes can host {placeable} of {replicas} replicas at once",
    ),
    (
        "queue.not_enough_at_once_one",
        "free nodes can host {placeable} of 1 replica at once",
    ),
    (
        "queue.outside_berth",
        "even with none of Berth's tasks running, {reason}; it waits for capacity used outside Berth on these nodes, which may never be given back; ask the cluster's administrators, or choose another spec or pool",
    ),
    (
        "queue.outside_berth#fewer",
        "even with none of Berth's tasks running, {reason}; it waits for capacity used outside Berth on these nodes, which may never be given back; fewer workers start now (below), or choose another spec or pool, or ask the cluster's administrators",
    ),
    (
        "queue.outside_berth#idle",
        "even with none of Berth's tasks running, {reason}; the idle capacity offered now cannot hold it, and it waits for more to be offered, which may never come; fewer workers or units per node, a lower stability or another kind may start it",
    ),
    (
        "queue.outside_berth#idle_lowest",
        "even with none of Berth's tasks running, {reason}; the idle capacity offered now cannot hold it, and it waits for more to be offered, which may never come; fewer workers or units per node, or another kind, may start it",
    ),
    (
        "queue.outside_berth#idle_unit",
        "even with none of Berth's tasks running, {reason}; the idle capacity offered now cannot hold it, and it waits for more to be offered, which may never come; fewer workers, a lower stability or another kind may start it",
    ),
    (
        "queue.outside_berth#idle_unit_lowest",
        "even with none of Berth's tasks running, {reason}; the idle capacity offered now cannot hold it, and it waits for more to be offered, which may never come; fewer workers or another kind may start it",
    ),
    (
        "queue.passed_over",
        "waiting for a task ahead in the queue that has been passed over too often",
    ),
    (
        "queue.passed_over#named",
        "waiting for {task}, ahead in the queue and passed over too often, to start first",
    ),
    (
        "queue.spec_unresolved",
        "the spec no longer resolves against the catalog",
    ),
    (
        "ray.autoscaling.max_workers.zero",
        "at 0, autoscaling can never add a worker; raise it or turn autoscaling off",
    ),
    (
        "ray.autoscaling.range",
        "needs min ≤ workers ≤ max; they are {min}, {workers}, {max}",
    ),
    (
        "ray.debug.keep_secs.out_of_range",
        "must be a whole number of seconds between 1 and 86400",
    ),
    (
        "ray.runtime_env.alias",
        "YAML anchors and aliases (&name, *name) are not accepted; write the values out",
    ),
    (
        "ray.runtime_env.duplicate_key",
        "gives '{key}' more than once; Ray keeps only the last",
    ),
    (
        "ray.runtime_env.env_vars",
        "env_vars must map names to string values; quote values like yes or 8",
    ),
    (
        "ray.runtime_env.invalid_yaml",
        "is not valid YAML (line {line}, column {column}): {reason}",
    ),
    (
        "ray.runtime_env.invalid_yaml.colon",
        "': ' in an unquoted value; quote the value, or fix the indentation",
    ),
    (
        "ray.runtime_env.invalid_yaml.flow",
        "inside the '{open}' of line {open_line}, a ',' or '{close}' is expected here",
    ),
    (
        "ray.runtime_env.invalid_yaml.indent",
        "this line does not fit the lines above: check its indentation, and do not mix '- ' items with 'key:' entries at one level",
    ),
    (
        "ray.runtime_env.invalid_yaml.missing_key",
        "a ':' with no key before it",
    ),
    ("ray.runtime_env.invalid_yaml.other", "{detail}"),
    (
        "ray.runtime_env.invalid_yaml.quote",
        "this quote is not closed",
    ),
    (
        "ray.runtime_env.invalid_yaml.tab",
        "a tab outside quotes or a comment, which Ray's YAML reader refuses; use spaces",
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
        "ray.runtime_env.unread",
        "was not checked: the YAML reader has not loaded; reload the page",
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
    ("shape.expected.whole_number", "a whole number, 0 or more"),
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
        "no volume: the container's local disk is lost when the task ends and may be wiped on a restart or move; mount one for outputs and checkpoints",
    ),
    (
        "storage.volume.rwo_multi_pod",
        "attaches to one node only (RWO) but the task has {pods} pods; use an RWX volume",
    ),
    (
        "storage.volume.unknown",
        "is not a volume of this cluster; pick one from the list",
    ),
    ("ui.app.api_error", "The server refused: {detail} ({code})"),
    ("ui.app.brand", "Berth"),
    (
        "ui.app.busy",
        "A proxy on the way to Berth asks to wait (HTTP 429): try again in {seconds} s.",
    ),
    (
        "ui.app.busy#no_wait",
        "A proxy on the way to Berth asks to wait (HTTP 429): try again in a moment.",
    ),
    ("ui.app.dismiss", "Dismiss"),
    (
        "ui.app.gateway",
        "A proxy or gateway on the way to Berth answered for it with HTTP {status}: Berth may be restarting, or the network busy. Try again in a moment.",
    ),
    ("ui.app.lang_en", "English"),
    ("ui.app.lang_zh", "中文"),
    ("ui.app.language", "Language"),
    ("ui.app.load_failed", "Could not load the catalog: {detail}"),
    ("ui.app.loading", "Loading the catalog…"),
    ("ui.app.nav", "Main"),
    ("ui.app.nav_list", "Tasks"),
    ("ui.app.nav_new", "Create task"),
    ("ui.app.network_error", "Cannot reach the server: {detail}"),
    (
        "ui.app.not_berth",
        "The answer at this address is not from Berth's API (HTTP {status}): is Berth at this address?",
    ),
    ("ui.app.not_found", "There is no page at {path}."),
    (
        "ui.app.read_no_answer",
        "The server has not answered in {seconds} s: check your connection, or try again later.",
    ),
    (
        "ui.app.read_no_answer#retried",
        "The server has not answered in {seconds} s: check your connection; this page asks again every few seconds by itself.",
    ),
    (
        "ui.app.refused.auth_required",
        "you are not signed in, or your sign-in has expired; sign in again",
    ),
    (
        "ui.app.refused.body_too_large",
        "the request is larger than the server accepts",
    ),
    (
        "ui.app.refused.internal",
        "the server met an internal error; try again later",
    ),
    (
        "ui.app.refused.log_elsewhere",
        "this server did not run this attempt: its log is kept by the server that ran it",
    ),
    (
        "ui.app.refused.tags_changed",
        "the tags were changed elsewhere since this page read them; look at them again",
    ),
    (
        "ui.app.refused.task_conflict",
        "the task has changed since this page showed it; look at it again",
    ),
    ("ui.app.refused.task_deleted", "the task was deleted"),
    (
        "ui.app.refused.task_forbidden",
        "only the task's owner can do this",
    ),
    (
        "ui.app.refused.task_not_found",
        "there is no such task, or it is not yours to see",
    ),
    (
        "ui.app.refused.task_stopping",
        "its stop is under way: delete it once it has stopped",
    ),
    (
        "ui.app.sign_in",
        "You are not signed in, or your sign-in has expired: sign in, then try again.",
    ),
    ("ui.app.skip", "Skip to content"),
    (
        "ui.app.spec_refused",
        "The server refused the spec: fix the findings it lists ({code})",
    ),
    (
        "ui.app.submit_no_answer",
        "The server has not answered in {seconds} s. The task may have been made: submitting again is safe, it makes no second one.",
    ),
    (
        "ui.app.too_large_on_the_way",
        "A proxy on the way to Berth refused the request as too large (HTTP 413): its limit is below Berth's own; ask your administrator to raise it.",
    ),
    ("ui.app.try_again", "Try again"),
    (
        "ui.app.unreachable",
        "Cannot reach the server: check your connection, or wait for the server to be back, then try again.",
    ),
    (
        "ui.app.unreachable#retried",
        "Cannot reach the server: check your connection, or wait for the server to be back; this page asks again every few seconds by itself.",
    ),
    (
        "ui.app.unreachable_other_site",
        "Cannot reach the server: check your connection, or wait for the server to be back, then try again; or Berth does not list this page's site ({origin}) in its `[cors] origins`, and the browser hides its answer from this page",
    ),
    (
        "ui.cli.catalog_loads",
        "{catalog} loads: regions {regions}, clusters {clusters}, specs {specs}, quota lines {quotas}, warnings {warnings}.",
    ),
    (
        "ui.cli.checked_as",
        "Checked as the user {user}, against {catalog}.",
    ),
    ("ui.cli.demo_catalog", "the demo catalog"),
    ("ui.detail.actions", "Actions"),
    ("ui.detail.attempt", "Attempt"),
    ("ui.detail.attempt_n", "Attempt {n}"),
    ("ui.detail.attempts", "Attempts"),
    (
        "ui.detail.attempts#reruns",
        "{attempts}, of which {reruns} re-ran it after the server stopped",
    ),
    ("ui.detail.back", "Back to the task list"),
    ("ui.detail.cancel", "Cancel"),
    ("ui.detail.clone", "Clone"),
    ("ui.detail.close", "Close"),
    ("ui.detail.compare", "Compare"),
    (
        "ui.detail.compare_differs",
        "{count} fields differ from {other}:",
    ),
    (
        "ui.detail.compare_differs_one",
        "1 field differs from {other}:",
    ),
    ("ui.detail.compare_field", "Field"),
    ("ui.detail.compare_itself", "That is this task."),
    (
        "ui.detail.compare_masked",
        "Hidden values masked in either spec are not compared.",
    ),
    ("ui.detail.compare_none", "not set"),
    (
        "ui.detail.compare_same",
        "Its spec and the spec of {other} are the same.",
    ),
    ("ui.detail.compare_this", "This task"),
    ("ui.detail.compare_with", "Compare with task"),
    ("ui.detail.copied", "Link copied."),
    ("ui.detail.copy", "Copy link"),
    (
        "ui.detail.copy_failed",
        "The browser refused the clipboard; copy the link by hand.",
    ),
    ("ui.detail.created", "Submitted"),
    ("ui.detail.delete", "Delete"),
    (
        "ui.detail.delete_after_end",
        "Only a task that has ended can be deleted: stop it first.",
    ),
    (
        "ui.detail.delete_confirm",
        "Delete task {name}? It leaves the lists and cannot be brought back.",
    ),
    (
        "ui.detail.delete_ended",
        "The task has ended: Delete takes it off the lists for good.",
    ),
    ("ui.detail.delete_yes", "Delete for good"),
    ("ui.detail.deleted", "Task {name} was deleted."),
    ("ui.detail.ended", "Ended"),
    ("ui.detail.ended#not_yet", "not yet"),
    ("ui.detail.event.admitted", "Admitted"),
    ("ui.detail.event.alert", "Alert"),
    ("ui.detail.event.cluster", "Cluster"),
    ("ui.detail.event.debug", "Debug mode"),
    ("ui.detail.event.exited", "Exited"),
    ("ui.detail.event.failed", "Failed"),
    ("ui.detail.event.job", "Job"),
    ("ui.detail.event.pull", "Image pull"),
    ("ui.detail.event.queued", "Queued"),
    ("ui.detail.event.retrying", "Retrying"),
    ("ui.detail.event.started", "Started"),
    ("ui.detail.event.stopped", "Stopped"),
    ("ui.detail.event.stopping", "Stopping"),
    ("ui.detail.event.succeeded", "Succeeded"),
    ("ui.detail.events", "Events"),
    (
        "ui.detail.events_earlier",
        "Show earlier events ({n} not shown)",
    ),
    ("ui.detail.events_empty", "No events yet."),
    (
        "ui.detail.failed_next",
        "Resubmit runs it again exactly as it was. To change its command, image, mounts or size first, Clone it: the form opens with its spec to edit.",
    ),
    (
        "ui.detail.failed_next#clone",
        "To run it again changed (its command, image, mounts or size), Clone it: the form opens with its spec to edit.",
    ),
    ("ui.detail.failed_reason", "Why it failed"),
    ("ui.detail.failing", "Ending for a failure"),
    ("ui.detail.fault_tolerance", "Fault tolerance"),
    (
        "ui.detail.fault_tolerance_on",
        "On: up to {max} retries, {used} used",
    ),
    (
        "ui.detail.fault_tolerance_on#waiting",
        "On: up to {max} retries, {used} used (the last waits to run)",
    ),
    (
        "ui.detail.fault_tolerance_on#waiting_one",
        "On: up to 1 retry, {used} used (it waits to run)",
    ),
    (
        "ui.detail.fault_tolerance_on_one",
        "On: up to 1 retry, {used} used",
    ),
    ("ui.detail.follow", "Follow live"),
    (
        "ui.detail.follow_broken",
        "The live log stopped before the attempt ended. Follow live takes it up again; Reload reads it once.",
    ),
    (
        "ui.detail.follow_ended",
        "The attempt has ended: its log will not grow.",
    ),
    (
        "ui.detail.follow_ended#again",
        "Attempt {attempt} has ended. The task runs again: its next attempt's log follows here once it starts.",
    ),
    (
        "ui.detail.follow_ended#again_idle",
        "Attempt {attempt} has ended. The task runs again: press Follow live to follow its next attempt's log once it starts.",
    ),
    (
        "ui.detail.follow_ended#attempt",
        "Attempt {attempt} has ended.",
    ),
    ("ui.detail.following", "Following the log live…"),
    (
        "ui.detail.following#attempt",
        "Following attempt {attempt}'s log live…",
    ),
    ("ui.detail.group", "Project group"),
    ("ui.detail.loading", "Loading the task…"),
    ("ui.detail.log_filter", "Lines containing"),
    (
        "ui.detail.log_filter_count",
        "{found} of {all} lines contain it.",
    ),
    (
        "ui.detail.log_filter_heard",
        "{found} of {all} lines contain “{text}”.",
    ),
    (
        "ui.detail.log_filter_none",
        "No line of the log shown contains “{text}”.",
    ),
    (
        "ui.detail.log_moved_to_failed",
        "Now showing the log of {replica}, whose end failed the task.",
    ),
    ("ui.detail.log_quiet", "No new log output from {replicas}."),
    (
        "ui.detail.log_quiet#all",
        "No replica has written to its log for {for} or more.",
    ),
    (
        "ui.detail.log_quiet#none",
        "Every replica wrote to its log in the last minute.",
    ),
    ("ui.detail.log_quiet.more", "{n} more replicas"),
    ("ui.detail.log_quiet.replica", "{replica} for {for}"),
    (
        "ui.detail.log_quiet.replica#empty",
        "{replica} since it started ({for})",
    ),
    (
        "ui.detail.log_snapshot",
        "The log as it was when read: Follow live shows what is written now.",
    ),
    ("ui.detail.logs", "Logs"),
    (
        "ui.detail.logs_cut",
        "Showing the end of this log (about {total} in all).",
    ),
    ("ui.detail.logs_empty", "No output yet."),
    (
        "ui.detail.logs_empty_ended",
        "This replica wrote no output in this attempt.",
    ),
    (
        "ui.detail.logs_none",
        "No attempt has started yet, so there is no log.",
    ),
    (
        "ui.detail.logs_none#ended",
        "It ended before any attempt started, so there is no log.",
    ),
    ("ui.detail.logs_reading", "Reading the log…"),
    ("ui.detail.logs_reload", "Reload"),
    ("ui.detail.logs_whole", "Open the whole log"),
    (
        "ui.detail.lost.delete",
        "The delete may not have reached the server; pressing Delete again is safe.",
    ),
    (
        "ui.detail.lost.resubmit",
        "A new task may have been made: pressing Resubmit again is safe, it gives back the task made rather than making a second.",
    ),
    (
        "ui.detail.lost.share",
        "A link may have been made: look in Manage links before pressing Share again, which makes another.",
    ),
    (
        "ui.detail.lost.stop",
        "The stop may not have reached the server: the task's phase says whether it is being stopped; pressing Stop again is safe.",
    ),
    ("ui.detail.made_from#clone", "Cloned from"),
    ("ui.detail.made_from#resubmit", "Resubmitted from"),
    ("ui.detail.made_into", "Resubmitted or cloned as"),
    ("ui.detail.made_into#more", "and more"),
    (
        "ui.detail.made_into#unread",
        "not read: reload the page to read them",
    ),
    ("ui.detail.monitoring", "Monitoring"),
    (
        "ui.detail.monitoring_on",
        "On: metrics at port {port}, path {path}, scraped while the task runs",
    ),
    (
        "ui.detail.not_found",
        "Task {name} was deleted, or is no longer yours to see.",
    ),
    ("ui.detail.off", "Off"),
    ("ui.detail.owner", "Owner"),
    (
        "ui.detail.owner_only",
        "Only its owner, {owner}, can stop, delete, resubmit, share or tag this task.",
    ),
    ("ui.detail.phase", "Phase"),
    ("ui.detail.phase_now", "Phase now: {phase}."),
    (
        "ui.detail.phase_now#failed",
        "Phase now: {phase}: {reason}.",
    ),
    ("ui.detail.placement", "Placement"),
    (
        "ui.detail.placement_autoscaling",
        "Placed for the autoscaling maximum of {max} workers: the job starts with {workers}, and Ray scales it between {min} and {max}.",
    ),
    (
        "ui.detail.placement_autoscaling#fixed",
        "Autoscaling is on, but Min and Max workers are both {max}: Ray keeps {max} workers.",
    ),
    (
        "ui.detail.placement_autoscaling#fixed_one",
        "Autoscaling is on, but Min and Max workers are both 1: Ray keeps 1 worker.",
    ),
    (
        "ui.detail.placement_head",
        "Head on {node}: 1 replica of {units} × {spec} ({takes})",
    ),
    (
        "ui.detail.placement_node",
        "{replicas} replicas of {units} × {spec} ({takes} in all) on {node}",
    ),
    (
        "ui.detail.placement_node_one",
        "1 replica of {units} × {spec} ({takes}) on {node}",
    ),
    ("ui.detail.placement_pool", "Pool {pool}"),
    (
        "ui.detail.placement_workers",
        "Workers on {node}: {replicas} replicas of {units} × {spec} ({takes} in all)",
    ),
    (
        "ui.detail.placement_workers_one",
        "Worker on {node}: 1 replica of {units} × {spec} ({takes})",
    ),
    (
        "ui.detail.queue_ahead",
        "{count} tasks wait ahead of it in its pool's queue (by priority, then submit time).",
    ),
    (
        "ui.detail.queue_ahead#first",
        "First in its pool's queue (tasks that wait for capacity used outside Berth are not counted).",
    ),
    (
        "ui.detail.queue_ahead_one",
        "1 task waits ahead of it in its pool's queue (by priority, then submit time).",
    ),
    ("ui.detail.reason", "Why it waits"),
    ("ui.detail.reload_page", "Reload the page"),
    ("ui.detail.replica", "Replica"),
    ("ui.detail.replica#rank", "Replica (RANK)"),
    (
        "ui.detail.replica_failed",
        "{label} — its end failed the task",
    ),
    (
        "ui.detail.replica_failed#attempt",
        "{label} — its end failed the attempt",
    ),
    ("ui.detail.replica_head", "{n}: head"),
    ("ui.detail.replica_master", "{n}: master"),
    (
        "ui.detail.replica_submitter",
        "{n}: submitter (the entrypoint's output)",
    ),
    (
        "ui.detail.replica_submitter#alone",
        "{n}: submitter (the entrypoint's output; no Ray cluster on this server)",
    ),
    ("ui.detail.replica_worker", "{n}: worker {i}"),
    ("ui.detail.replica_worker#ray", "{n}: worker {i}"),
    ("ui.detail.resilience", "Monitoring and fault tolerance"),
    ("ui.detail.resources", "Resources"),
    (
        "ui.detail.resources#accept_idle",
        "; accepts idle resources, stability {stability}",
    ),
    ("ui.detail.resources#idle", "{kind}, stability {stability}"),
    ("ui.detail.resources#pool", "{kind} in pool {pool}"),
    (
        "ui.detail.resources#pool_priority",
        "{kind} in pool {pool}, priority {priority}",
    ),
    (
        "ui.detail.resources#prefer_idle",
        "; prefers idle resources",
    ),
    (
        "ui.detail.resources#priority",
        "{kind}, priority {priority}",
    ),
    ("ui.detail.resubmit", "Resubmit"),
    (
        "ui.detail.resubmit_refused",
        "The server refused to run this spec again as it is: clone the task and fix the findings below in the form ({code})",
    ),
    (
        "ui.detail.resubmit_refused#quota",
        "Your quota for this spec does not cover the task now: stop one of your other tasks, or resubmit when they have ended; if your quota was lowered below what the task needs, clone it and ask for less ({code})",
    ),
    (
        "ui.detail.resubmitted_from",
        "Resubmitted from task {name}: this is a new task with the same spec.",
    ),
    ("ui.detail.retries", "Attempts run again"),
    ("ui.detail.retries_all", "Show all {n} attempts run again"),
    ("ui.detail.retry", "{at}: {reason}"),
    (
        "ui.detail.retry#never_ran",
        "{at}: {reason} (it never ran: the task ended first)",
    ),
    (
        "ui.detail.room_kept",
        "The queue keeps room for it: passed over too often, it starts before tasks behind it in its pool take the nodes it can use.",
    ),
    ("ui.detail.share", "Share"),
    ("ui.detail.share_close", "Close the share link"),
    ("ui.detail.share_copied_n", "Link {link} copied."),
    ("ui.detail.share_copy_label", "Copy link {link}"),
    (
        "ui.detail.share_help",
        "Anyone signed in with this link sees the task read-only; hidden values stay masked. Each Share makes another link: Manage links lists them, each with its Revoke.",
    ),
    ("ui.detail.share_link", "Share link"),
    ("ui.detail.share_link_n", "Link {link}:"),
    ("ui.detail.share_links", "Share links that work"),
    ("ui.detail.share_links_close", "Close the list of links"),
    (
        "ui.detail.share_links_none",
        "No share link of this task works now: Share makes one.",
    ),
    ("ui.detail.share_list", "Manage links"),
    ("ui.detail.share_made", "made {at} by {by}"),
    ("ui.detail.share_revoke", "Revoke"),
    (
        "ui.detail.share_revoke_label",
        "Revoke link {link}, made {at}",
    ),
    (
        "ui.detail.share_revoke_question",
        "Revoke link {link}? Anyone who has it can no longer open this task, and a revoked link cannot be brought back.",
    ),
    ("ui.detail.share_revoke_yes", "Revoke it"),
    (
        "ui.detail.share_revoked",
        "Link {link}, made {at}, is revoked: it no longer opens this task.",
    ),
    (
        "ui.detail.signed_in_as_other",
        "You are signed in as {now} now, not {then}, who opened this page: the actions it offers are {then}'s. Reload it to see the task as {now} may.",
    ),
    ("ui.detail.spec", "Spec"),
    (
        "ui.detail.spec_masked",
        "Hidden values are masked: this task is not yours.",
    ),
    (
        "ui.detail.spec_own",
        "Your task: hidden values are shown to you only.",
    ),
    ("ui.detail.spec_place", "Instance spec {name}"),
    ("ui.detail.specs", "Specs, in order"),
    ("ui.detail.specs#head", "; the head: {spec}"),
    ("ui.detail.stability_any", "any level"),
    ("ui.detail.status", "Status detail"),
    ("ui.detail.stop", "Stop"),
    (
        "ui.detail.stop_asked",
        "Stop was asked: the task ends once its replicas have exited.",
    ),
    (
        "ui.detail.stop_confirm",
        "Stop task {name}? Its replicas are ended now, and what they have not saved is lost.",
    ),
    (
        "ui.detail.stop_confirm#retrying",
        "Stop task {name}? It is waiting to run again: its next attempt does not start, and any quota it holds is given back.",
    ),
    (
        "ui.detail.stop_confirm#waiting",
        "Stop task {name}? It has not started: it leaves the queue, and any quota it holds is given back.",
    ),
    (
        "ui.detail.stop_meanwhile",
        "The task ended, or its stop was asked elsewhere, while Stop was being asked: there is nothing left to stop.",
    ),
    ("ui.detail.stop_yes", "Stop it"),
    ("ui.detail.tag_add", "Add tag"),
    ("ui.detail.tag_refused", "#{number}, refused:"),
    ("ui.detail.tag_remove", "Remove tag {tag}"),
    ("ui.detail.tags", "Tags"),
    (
        "ui.detail.tags_elsewhere",
        "These tags were changed elsewhere meanwhile; the task now has {tags}. Saving replaces them with yours.",
    ),
    (
        "ui.detail.tags_elsewhere#none",
        "These tags were removed elsewhere meanwhile; the task now has none. Saving puts yours back.",
    ),
    (
        "ui.detail.tags_leave",
        "The tag edits on this page are not saved. Leave the page without saving them?",
    ),
    ("ui.detail.tags_none", "No tags."),
    (
        "ui.detail.tags_nothing",
        "Nothing to save: these are the task's tags.",
    ),
    (
        "ui.detail.tags_owner_only",
        "Only its owner, {owner}, can change its tags.",
    ),
    ("ui.detail.tags_save", "Save tags"),
    ("ui.detail.tags_saved", "Tags saved."),
    ("ui.detail.tags_take_theirs", "Take the task's tags"),
    (
        "ui.detail.tags_unsaved",
        "Not saved yet: Save tags applies these tags to the task.",
    ),
    (
        "ui.detail.tags_unsaved#blocked",
        "Not saved yet: fix what is said above first; then Save tags applies the tags to the task.",
    ),
    ("ui.detail.timeline", "Timeline"),
    ("ui.detail.title", "Task {name}"),
    ("ui.detail.title#phase", "Task {name}: {phase}"),
    ("ui.detail.to_log", "Read its log"),
    ("ui.detail.took", "for {duration}"),
    ("ui.detail.type", "Type"),
    (
        "ui.detail.waiting_answer",
        "Waiting for the server's answer; the buttons come back when it comes.",
    ),
    ("ui.detail.waits_run", "run {run}, a retry, waits: {reason}"),
    ("ui.duration.dh", "{d} d {h} h"),
    ("ui.duration.hm", "{h} h {m} min"),
    ("ui.duration.ms", "{m} min {s} s"),
    ("ui.duration.s", "{s} s"),
    ("ui.form.add.advanced.alerts", "Add an alert"),
    ("ui.form.add.basic.tags", "Add a tag"),
    ("ui.form.add.compute.specs", "Add a spec"),
    ("ui.form.add.environment.datasets", "Add a dataset"),
    ("ui.form.add.environment.env", "Add an env var"),
    ("ui.form.add.environment.models", "Add a model"),
    ("ui.form.add.environment.storage", "Add a volume"),
    (
        "ui.form.alerts.no_email",
        "This server sends no email (no mail relay is set up): the alert would be recorded among the task's events, not sent. Use a webhook, or ask the administrator for a relay.",
    ),
    ("ui.form.choose", "Choose…"),
    ("ui.form.clone_afresh", "Start again from the task's spec"),
    (
        "ui.form.clone_afresh_confirm",
        "Drop your edits of this clone and start again from the task's spec? Your edits cannot be brought back.",
    ),
    ("ui.form.clone_afresh_yes", "Drop my edits"),
    ("ui.form.clone_failed.blank", "Open the create form instead"),
    ("ui.form.clone_loading", "Loading the task to copy…"),
    (
        "ui.form.clone_restored",
        "Your unsent edits of this clone were restored.",
    ),
    (
        "ui.form.clone_restored#sent",
        "Your edits of this clone were restored. They were submitted and no answer came: submitting them again gives the task they made, if they made one, not a second.",
    ),
    (
        "ui.form.copy_of",
        "A copy of task {id}: a new task is created only when you submit.",
    ),
    ("ui.form.count.errors", "{count} errors"),
    ("ui.form.count.errors_one", "1 error"),
    ("ui.form.count.hints", "{count} hints"),
    ("ui.form.count.hints_one", "1 hint"),
    ("ui.form.count.todo", "{count} to do"),
    ("ui.form.count.warnings", "{count} warnings"),
    ("ui.form.count.warnings_one", "1 warning"),
    (
        "ui.form.debug_no_cluster",
        "This server runs a RayJob's entrypoint without a Ray cluster (its local backend): debug mode keeps no cluster here.",
    ),
    ("ui.form.draft_restored", "Your unsent draft was restored."),
    (
        "ui.form.draft_restored#other_tab",
        "The last draft saved in another tab was restored. If that tab is still open, submitting from both makes two tasks.",
    ),
    (
        "ui.form.draft_restored#sent",
        "Your draft was restored. It was submitted and no answer came: submitting it again gives the task it made, if it made one, not a second.",
    ),
    (
        "ui.form.draft_restored.masked",
        "{said} Drafts keep no hidden value or webhook target you typed: type again those marked below.",
    ),
    (
        "ui.form.env.hidden_lines",
        "This hidden value has {lines} lines, which its box cannot show: typing in it starts the value over. To edit it, untick Hide first.",
    ),
    (
        "ui.form.export.held",
        "Not a number in {fields}: the files carry the last number each such box held instead. Fix it before you export.",
    ),
    (
        "ui.form.export.hidden",
        "Hidden env values and webhook targets are exported as the form holds them: in clear where it holds the value (typed here, or your own task's, cloned), or as the mask ****** where it holds the mask, which must be typed again after an import.",
    ),
    ("ui.form.export.json", "Export JSON"),
    ("ui.form.export.yaml", "Export YAML"),
    ("ui.form.fix_errors", "fix the errors to submit"),
    ("ui.form.head_spec.same", "The workers' spec"),
    (
        "ui.form.image_fix",
        "Use “{image}”, without the blanks pasted with it",
    ),
    (
        "ui.form.image_pull_retries.default",
        "Empty: the platform default, {default}.",
    ),
    ("ui.form.import.at_line", "at line {line}"),
    ("ui.form.import.button", "Import"),
    ("ui.form.import.choose", "Choose a file…"),
    (
        "ui.form.import.confirm",
        "Replace the whole form with the imported spec? What you have filled in cannot be brought back.",
    ),
    (
        "ui.form.import.documents",
        "Not imported: found {count} YAML documents; a spec is exactly one.",
    ),
    (
        "ui.form.import.done",
        "Imported: the form above now holds the imported spec.",
    ),
    ("ui.form.import.file", "Or import a file"),
    (
        "ui.form.import.file_not_utf8",
        "Not imported: the file is not UTF-8 text; save it as UTF-8 and choose it again.",
    ),
    (
        "ui.form.import.file_too_large",
        "Not imported: the file is larger than 4 MiB; a spec is far smaller: choose the spec's own file.",
    ),
    (
        "ui.form.import.file_unreadable",
        "Not imported: the browser could not read the file.",
    ),
    ("ui.form.import.hinted", "{finding}. {hint}"),
    (
        "ui.form.import.json.colon",
        "a ':' is expected after the key",
    ),
    (
        "ui.form.import.json.comma_brace",
        "a ',' or '}' is expected here",
    ),
    (
        "ui.form.import.json.comma_bracket",
        "a ',' or ']' is expected here",
    ),
    (
        "ui.form.import.json.control",
        "a string holds a control character (a line break, a tab): write it escaped, as \\n or \\t",
    ),
    (
        "ui.form.import.json.eof",
        "the text ends before the JSON does",
    ),
    (
        "ui.form.import.json.eof_string",
        "a string has no closing double quote",
    ),
    (
        "ui.form.import.json.escape",
        "a backslash escape is not valid",
    ),
    (
        "ui.form.import.json.key",
        "a key must be text in double quotes",
    ),
    ("ui.form.import.json.number", "a number is not valid"),
    (
        "ui.form.import.json.trailing",
        "there is more text after the JSON object",
    ),
    (
        "ui.form.import.json.trailing_comma",
        "a comma before a closing bracket is not allowed in JSON",
    ),
    (
        "ui.form.import.json.value",
        "a value is expected: text in double quotes, a number, true, false, null, a list or an object",
    ),
    ("ui.form.import.label", "Paste a spec as YAML or JSON"),
    (
        "ui.form.import.manifest",
        "Not imported: this is a Kubernetes object (it has `apiVersion` and `kind`), not a Berth task spec. Berth writes the PyTorchJob or RayJob from its spec: fill in the form, or import a spec that Export wrote (Export YAML shows its shape).",
    ),
    (
        "ui.form.import.not_plain",
        "Not imported: only plain YAML is read (text keys, no aliases).",
    ),
    (
        "ui.form.import.runtime_env_block",
        "Write it as text, a block under `runtime_env: |` with its lines indented, as the export writes it.",
    ),
    (
        "ui.form.import.shape",
        "Not imported: {count} fields are unknown or of the wrong shape.",
    ),
    (
        "ui.form.import.shape_one",
        "Not imported: 1 field is unknown or of the wrong shape.",
    ),
    ("ui.form.import.syntax", "Not imported: {detail}"),
    (
        "ui.form.import.syntax_at",
        "Not imported: the text cannot be read at line {line}, column {column} (the reader says: {detail}).",
    ),
    (
        "ui.form.import.syntax_at#known",
        "Not imported: the text cannot be read at line {line}, column {column}: {reason}.",
    ),
    ("ui.form.import.title", "Import a spec"),
    (
        "ui.form.import.unread",
        "Not imported: the YAML reader did not load; reload the page, or paste the spec as JSON",
    ),
    (
        "ui.form.import.yaml.colon",
        "a \": \" where YAML takes none: indent the line as the lines of its key are, or put text that holds \": \" in quotes",
    ),
    (
        "ui.form.import.yaml.comment",
        "a \"#\" that begins a comment needs a space before it",
    ),
    (
        "ui.form.import.yaml.indent",
        "the line is not indented as the lines around it are: a key's fields are indented alike, with spaces",
    ),
    (
        "ui.form.import.yaml.quote",
        "a quoted text has no closing quote",
    ),
    (
        "ui.form.import.yaml.space_after",
        "a \":\" or \"-\" is followed by a space, not a tab or another character",
    ),
    (
        "ui.form.import.yaml.tab",
        "YAML is indented with spaces, not tabs: replace the tabs at the start of the line with spaces",
    ),
    ("ui.form.import.yes", "Replace the form"),
    (
        "ui.form.kind_note.idle",
        "Idle: uses no quota and is not guaranteed: higher-priority work may take it back. For tasks whose training saves checkpoints or can be resubmitted.",
    ),
    (
        "ui.form.kind_note.on_demand",
        "On-demand: uses on-demand quota, not the reserved one; how well it is guaranteed depends on its priority and guarantee. For routine training and experiments; a distributed task short of room queues as a whole.",
    ),
    (
        "ui.form.kind_note.reserved",
        "Reserved: runs on the reserved quota bought or assigned to you, and is usually guaranteed. For critical or long training, and tasks costly to restart.",
    ),
    (
        "ui.form.kind_note.spot",
        "Spot: uses no quota and is not guaranteed, so it may be interrupted. For cost-sensitive, non-critical tasks that save checkpoints and can be retried.",
    ),
    (
        "ui.form.launch_example",
        "Each replica runs this command as it is. To train as one job across them, launch it with torchrun and the variables Berth injects, for example:",
    ),
    ("ui.form.launch_example_use", "Launch my command this way"),
    (
        "ui.form.left_out",
        "Not offered here, so left out of the task: {items}. Choose {before} again now to keep them.",
    ),
    (
        "ui.form.left_out#none",
        "Not offered here, so left out of the task: {items}.",
    ),
    ("ui.form.left_out.head", "the head's spec {name}"),
    ("ui.form.left_out.pool", "pool {name}"),
    ("ui.form.left_out.spec", "spec {name}"),
    (
        "ui.form.made_before",
        "Your last draft was submitted as task {id} while the page reloaded: this is a new form.",
    ),
    (
        "ui.form.manifests.blocked",
        "Fix the errors the form lists to render the objects.",
    ),
    (
        "ui.form.manifests.failed",
        "The server could not render the objects: {detail}",
    ),
    (
        "ui.form.manifests.note",
        "The objects the server will apply to the cluster: the name's random suffix shows as xxxxx and hidden values are masked.",
    ),
    ("ui.form.manifests.render", "Render with the server"),
    (
        "ui.form.manifests.stale",
        "Edited since these objects were rendered; render again to see the current spec's.",
    ),
    ("ui.form.manifests.title", "Preview: the Kubernetes objects"),
    ("ui.form.name_fix", "Use “{prefix}”"),
    (
        "ui.form.name_fix#invisible",
        "Use “{prefix}”, without the invisible character",
    ),
    (
        "ui.form.name_pattern",
        "Final name: {pattern} · prefix {length} of at most {max} characters",
    ),
    (
        "ui.form.name_pattern#no_type",
        "Final name: {pattern} · choose the task type to see the maximum length",
    ),
    (
        "ui.form.no_project_group",
        "You are in no project group, so you cannot submit tasks: ask an administrator to add you to one.",
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
    ("ui.form.option.pool", "{name} ({sharing})"),
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
        "ui.form.persistent_env",
        "Your persistent env vars are set in every task of yours as well: {vars}. A variable of the same name above takes their place.",
    ),
    ("ui.form.persistent_env.hidden", "{name} (hidden)"),
    (
        "ui.form.plan.advice.ask_quota",
        "Or ask your administrator for quota.",
    ),
    (
        "ui.form.plan.advice.elsewhere",
        "Choose another pool or spec that you have quota for.",
    ),
    (
        "ui.form.plan.advice.kinds#idle",
        "Or choose idle resources, which use no quota but may be interrupted.",
    ),
    (
        "ui.form.plan.advice.kinds#spot",
        "Or choose spot instances, which use no quota but may be interrupted.",
    ),
    (
        "ui.form.plan.advice.kinds#spot_idle",
        "Or choose spot or idle resources, which use no quota but may be interrupted.",
    ),
    (
        "ui.form.plan.advice.less#max",
        "Ask for less (a lower Max workers), or add a spec that is within your quota.",
    ),
    (
        "ui.form.plan.advice.less#max_units",
        "Ask for less (a lower Max workers, or fewer units per node), or add a spec that is within your quota.",
    ),
    (
        "ui.form.plan.advice.less#units",
        "Ask for less (fewer workers or units per node), or add a spec that is within your quota.",
    ),
    (
        "ui.form.plan.advice.less#workers",
        "Ask for less (fewer workers), or add a spec that is within your quota.",
    ),
    ("ui.form.plan.aside", " ({text})"),
    (
        "ui.form.plan.bar.idle",
        "Idle capacity at the chosen stability or above: needs {demand} {unit}; {left} free",
    ),
    (
        "ui.form.plan.bar.idle#any",
        "Idle capacity at any stability: needs {demand} {unit}; {left} free",
    ),
    (
        "ui.form.plan.bar.pool",
        "Pool: needs {demand} {unit}; {left} free",
    ),
    (
        "ui.form.plan.bar.quota",
        "Quota for {spec}: needs {demand} {unit}; {left} left",
    ),
    (
        "ui.form.plan.catalog_changed",
        "The catalog changed on the server since this form opened (quotas, specs or pools): reload the page to plan against it; your draft is kept.",
    ),
    (
        "ui.form.plan.fewer",
        "With Workers at {workers} ({replicas} replicas in all), it would start now with {spec}.",
    ),
    (
        "ui.form.plan.fewer#none",
        "With Workers at 0, one replica alone, it would start now with {spec}.",
    ),
    (
        "ui.form.plan.fewer_units",
        "With Units per node at {units}, it would start now with {spec}.",
    ),
    (
        "ui.form.plan.fewer_units_use",
        "Set Units per node to {units}",
    ),
    ("ui.form.plan.fewer_use", "Set Workers to {workers}"),
    (
        "ui.form.plan.fragment",
        "{nodes} nodes with {units} free each",
    ),
    ("ui.form.plan.fragment_one", "1 node with {units} free"),
    (
        "ui.form.plan.head_only",
        "no workers; the head on {spec}: {amount}",
    ),
    (
        "ui.form.plan.idle",
        "Idle capacity of {spec}: quantity {quantity} free now, stability {stability}, fragments {fragments}",
    ),
    (
        "ui.form.plan.idle#none_free",
        "Idle capacity of {spec}: none free now, stability {stability}",
    ),
    (
        "ui.form.plan.idle_lower",
        "It would start now at a lower stability level: {levels}.",
    ),
    (
        "ui.form.plan.idle_none",
        "No idle capacity of {spec} is offered at the chosen stability level or above.",
    ),
    (
        "ui.form.plan.idle_none#any",
        "No idle capacity of {spec} is offered at any stability level.",
    ),
    (
        "ui.form.plan.no_quota_needed",
        "This resource kind uses no quota.",
    ),
    (
        "ui.form.plan.on_idle_quota",
        "On idle capacity the task holds none of this quota while it runs; it must be within it to start.",
    ),
    (
        "ui.form.plan.outcome.blocked",
        "Cannot start: no spec is within quota and able to fit. See the errors.",
    ),
    (
        "ui.form.plan.outcome.blocked#head_quota",
        "Cannot start: the head's spec {spec} is over your remaining quota. See the errors.",
    ),
    (
        "ui.form.plan.outcome.blocked#never",
        "Cannot start: no spec can ever fit. See the errors.",
    ),
    (
        "ui.form.plan.outcome.blocked#never_autoscaling",
        "Cannot start: counted at its autoscaling maximum of workers, no spec can ever fit. See the errors.",
    ),
    (
        "ui.form.plan.outcome.blocked#no_quota",
        "Cannot start: you have no quota for these specs in this pool.",
    ),
    (
        "ui.form.plan.outcome.blocked#quota",
        "Cannot start: every spec is over your remaining quota; the errors say by how much.",
    ),
    (
        "ui.form.plan.outcome.blocked#quota_autoscaling",
        "Cannot start: counted at its autoscaling maximum of workers, every spec is over your remaining quota; the errors say by how much.",
    ),
    (
        "ui.form.plan.outcome.now",
        "Starts now with {spec} on {nodes} nodes.",
    ),
    (
        "ui.form.plan.outcome.now#idle",
        "Starts now on idle capacity with {spec} on {nodes} nodes.",
    ),
    (
        "ui.form.plan.outcome.now#idle_one",
        "Starts now on idle capacity with {spec} on 1 node.",
    ),
    (
        "ui.form.plan.outcome.now_one",
        "Starts now with {spec} on 1 node.",
    ),
    (
        "ui.form.plan.outcome.queue",
        "Will queue as a whole for {spec}: {reason}.",
    ),
    (
        "ui.form.plan.outcome.queue#autoscaling",
        "Will queue as a whole for {spec}, counted at its autoscaling maximum of workers (a lower Max workers may start it sooner): {reason}.",
    ),
    (
        "ui.form.plan.outcome.queue#held",
        "Will queue: the free room it fits on now is kept for a task ahead in the queue, passed over too often, which starts first.",
    ),
    (
        "ui.form.plan.outcome.queue#no_idle",
        "Will queue as a whole until idle capacity of {spec} is offered at the chosen stability level or above.",
    ),
    (
        "ui.form.plan.outcome.queue#no_idle_any",
        "Will queue as a whole until idle capacity of {spec} is offered.",
    ),
    (
        "ui.form.plan.outcome.queue#no_idle_head",
        "Will queue as a whole until idle capacity of {spec} is offered for the head at the chosen stability level or above; with the workers' spec for the head (Head spec), it may start sooner.",
    ),
    (
        "ui.form.plan.outcome.queue#no_idle_head_any",
        "Will queue as a whole until idle capacity of {spec} is offered for the head; with the workers' spec for the head (Head spec), it may start sooner.",
    ),
    (
        "ui.form.plan.pending",
        "Where the task would run shows once a cluster, resource kind and instance spec are chosen and the errors in the compute section (and a RayJob's autoscaling range) are fixed.",
    ),
    (
        "ui.form.plan.pending#chosen",
        "Where the task would run shows once the errors in the compute section (and a RayJob's autoscaling range) are fixed.",
    ),
    (
        "ui.form.plan.pending#fields",
        "Where the task would run shows once these are fixed: {fields}.",
    ),
    (
        "ui.form.plan.pending#kept",
        "Where the task would run shows once the errors in the compute section (and a RayJob's autoscaling range) are fixed. Framed in grey below: the plan before them.",
    ),
    (
        "ui.form.plan.pending#kept_fields",
        "Where the task would run shows once these are fixed: {fields}. Framed in grey below: the plan before them.",
    ),
    ("ui.form.plan.per_replica", "one replica: {amount}"),
    (
        "ui.form.plan.pool_reference",
        "The pool's free capacity is a reference, not a reservation: it changes as other tasks start and end.",
    ),
    (
        "ui.form.plan.quota_held",
        "{held} of your quota for {spec} is in use now (your running and queued tasks, and any other use the platform counts); it frees as that use ends.",
    ),
    (
        "ui.form.plan.quota_held#berth",
        "{held} of your quota for {spec} is in use now by your running and queued tasks in Berth; it frees as they end.",
    ),
    (
        "ui.form.plan.quota_held#both",
        "{held} of your quota for {spec} is in use now: {berth} by your running and queued tasks in Berth, and {outside} by use the platform counts outside Berth.",
    ),
    (
        "ui.form.plan.quota_held#outside",
        "{held} of your quota for {spec} is in use now, all of it counted by the platform outside Berth, which Berth cannot end; ask your administrator if it should not be.",
    ),
    ("ui.form.plan.replicas", "{replicas} replicas · pool {pool}"),
    (
        "ui.form.plan.replicas#autoscaling",
        "{replicas} replicas: the head and up to {max} workers, the autoscaling maximum · pool {pool}",
    ),
    (
        "ui.form.plan.replicas#autoscaling_one",
        "{replicas} replicas: the head and up to 1 worker, the autoscaling maximum · pool {pool}",
    ),
    (
        "ui.form.plan.replicas#head",
        "{replicas} replicas: the head and {workers} workers · pool {pool}",
    ),
    (
        "ui.form.plan.replicas#head_alone",
        "1 replica: the head alone · pool {pool}",
    ),
    (
        "ui.form.plan.replicas#head_one",
        "{replicas} replicas: the head and 1 worker · pool {pool}",
    ),
    (
        "ui.form.plan.replicas#master",
        "{replicas} replicas: the master and {workers} workers · pool {pool}",
    ),
    (
        "ui.form.plan.replicas#master_alone",
        "1 replica: the master alone · pool {pool}",
    ),
    (
        "ui.form.plan.replicas#master_one",
        "{replicas} replicas: the master and 1 worker · pool {pool}",
    ),
    ("ui.form.plan.replicas_one", "1 replica · pool {pool}"),
    ("ui.form.plan.short_of", "{amount} ({spec})"),
    (
        "ui.form.plan.stale",
        "The quota and pool use could not be read again just now: what this shows may be out of date. It is asked again every 30 s.",
    ),
    ("ui.form.plan.title", "Quota and scheduling"),
    ("ui.form.plan.used", "(would be used)"),
    ("ui.form.plan.verdict.never", "can never fit: {reason}"),
    ("ui.form.plan.verdict.no_quota", "no quota for {spec}"),
    (
        "ui.form.plan.verdict.no_quota#skipped",
        "skipped: no quota for {spec}",
    ),
    (
        "ui.form.plan.verdict.now",
        "fits now on {spec}, {nodes} nodes",
    ),
    (
        "ui.form.plan.verdict.now#idle",
        "fits now on idle capacity, {spec}, {nodes} nodes",
    ),
    (
        "ui.form.plan.verdict.now#idle_one",
        "fits now on idle capacity, {spec}, 1 node",
    ),
    ("ui.form.plan.verdict.now_one", "fits now on {spec}, 1 node"),
    (
        "ui.form.plan.verdict.over_quota",
        "over quota by {shortfall}",
    ),
    (
        "ui.form.plan.verdict.over_quota#skipped",
        "skipped: over quota by {shortfall}",
    ),
    ("ui.form.plan.verdict.queue", "will queue: {reason}"),
    (
        "ui.form.plan.verdict.queue#skipped",
        "skipped: not free now ({reason})",
    ),
    (
        "ui.form.plan.verdict.unusable",
        "not part of the plan in pool {pool} (its finding says why)",
    ),
    (
        "ui.form.plan.with_head",
        "one worker: {amount}; the head on {spec}: {head}",
    ),
    ("ui.form.pool_automatic", "Automatic: {pool}"),
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
        "ui.form.pytorch.injected_local",
        "Every pod gets {names}; this server (its local backend) gives each task a master port of its own in MASTER_PORT. Use them in the command.",
    ),
    (
        "ui.form.pytorch.pods",
        "{replicas} replicas: the master {master}",
    ),
    ("ui.form.pytorch.pods_one", "1 replica: the master {master}"),
    ("ui.form.pytorch.title", "PyTorchJob"),
    ("ui.form.pytorch.worker", "and the worker {worker}."),
    ("ui.form.pytorch.workers", "and workers {first} … {last}."),
    ("ui.form.ready", "ready to submit"),
    ("ui.form.remove_row", "Remove {row}"),
    ("ui.form.row_removed", "Removed {row}."),
    ("ui.form.row_removed#named", "Removed {row}: {what}."),
    (
        "ui.form.runtime_env_local",
        "This server (the local backend) runs no Ray cluster: only the runtime env's env_vars reach the job's processes; working_dir, pip, conda and the rest are not applied.",
    ),
    (
        "ui.form.sent_differs",
        "This draft was submitted before the page was reloaded, and a task was made of it as it was then (its hidden values or edits since differ): see the task list. Submit again to make another task.",
    ),
    (
        "ui.form.sent_differs#here",
        "The submit before this one got no answer, and it made a task of the draft as it was then (edits since differ): see the task list. Submit again to make another task.",
    ),
    ("ui.form.severity.error", "error"),
    ("ui.form.severity.info", "hint"),
    ("ui.form.severity.warning", "warning"),
    ("ui.form.specs.down", "Move spec {rank} down"),
    (
        "ui.form.specs.moved",
        "{spec} is now spec {rank} of {count}",
    ),
    (
        "ui.form.specs.none_offered",
        "No spec of this instance type runs in the chosen cluster's pool; choose another instance type, resource kind or cluster.",
    ),
    ("ui.form.specs.remove", "Remove spec {rank}"),
    (
        "ui.form.specs.reorder_help",
        "Reorder with the arrows, Alt+↑/Alt+↓, or by dragging.",
    ),
    (
        "ui.form.specs.row",
        "Instance specs: number {rank} by priority",
    ),
    (
        "ui.form.specs.row#used",
        "Instance specs: number {rank} by priority, the one the task would use",
    ),
    ("ui.form.specs.up", "Move spec {rank} up"),
    (
        "ui.form.specs.used_mark",
        "✓ The spec the task would use, whether it starts now or waits in the queue",
    ),
    ("ui.form.stability_any", "Any level"),
    ("ui.form.start_over", "Start over"),
    (
        "ui.form.start_over_confirm",
        "Clear the form and its saved draft? What you have filled in cannot be brought back.",
    ),
    ("ui.form.start_over_yes", "Clear the form"),
    ("ui.form.submit", "Submit"),
    (
        "ui.form.submit_again_safe",
        "Submitting again is safe: if the task was made, the server gives it back rather than making a second.",
    ),
    (
        "ui.form.submit_blocked",
        "{errors} to fix first: each finding above takes you to its field.",
    ),
    (
        "ui.form.submit_lost_cleared",
        "The form was cleared while that submit was out: it may have made a task of the draft as it was; see the task list.",
    ),
    (
        "ui.form.submit_waiting",
        "Waiting for the server's answer, for up to 30 s: waiting is safe, and the task is not made twice.",
    ),
    ("ui.form.submitted", "Submitted: task {id} was created."),
    (
        "ui.form.submitted#again",
        "Already submitted: task {id} was created from this spec; change the spec to create another.",
    ),
    ("ui.form.submitting", "Submitting…"),
    ("ui.form.summary", "{errors} · {warnings} · {hints}"),
    ("ui.form.summary.after_place", ": "),
    ("ui.form.summary.row", "{list} #{number}"),
    ("ui.form.summary.whole", "the whole spec"),
    ("ui.form.summary_title", "Findings"),
    (
        "ui.form.tags.maintained",
        "{finding}; the maintained tags: {tags}",
    ),
    ("ui.form.tags.maintained_more", "and more"),
    (
        "ui.form.time_zone_not_browsers",
        "Not your browser's time zone ({browser}): this task's times, and the clock its pods run on (TZ), will be in {zone}.",
    ),
    (
        "ui.form.time_zone_not_browsers#times",
        "Not your browser's time zone ({browser}): this task's times will be in {zone}.",
    ),
    (
        "ui.form.time_zone_not_offered",
        "Your browser's time zone, {zone}, is not in this list: choose the zone the task's logs and times should be shown in.",
    ),
    ("ui.form.title", "Create training task"),
    ("ui.form.volume.rwo", "RWO: read-write from one node"),
    ("ui.form.volume.rwx", "RWX: read-write from many nodes"),
    (
        "ui.form.workers_out_of_range",
        "Outside the autoscaling range, {min} to {max} (Min and Max workers, under RayJob settings below).",
    ),
    ("ui.list.any", "Any"),
    ("ui.list.arrived", "Show {count} new"),
    ("ui.list.chip_active", "Active"),
    ("ui.list.chip_all", "All"),
    ("ui.list.chips", "Tasks by phase"),
    ("ui.list.clear", "Clear filters"),
    ("ui.list.col.created", "Submitted"),
    ("ui.list.col.group", "Project group"),
    ("ui.list.col.name", "Name"),
    ("ui.list.col.owner", "Owner"),
    ("ui.list.col.phase", "Phase"),
    ("ui.list.col.ran", "Ran for"),
    ("ui.list.col.tags", "Tags"),
    ("ui.list.col.type", "Type"),
    ("ui.list.empty", "No task matches these filters."),
    (
        "ui.list.empty#none",
        "No tasks yet. Create one with Create task.",
    ),
    (
        "ui.list.empty.owner_near",
        "No one whose tasks you can see is named “{owner}”: the owner filter takes a user's whole name. Did you mean:",
    ),
    (
        "ui.list.empty.owner_unknown",
        "No one whose tasks you can see is named “{owner}”: the owner filter takes a user's whole name.",
    ),
    ("ui.list.filter.made_from", "Resubmitted or cloned from"),
    ("ui.list.filter.made_from_remove", "Remove this filter"),
    ("ui.list.filter.name", "Name contains"),
    ("ui.list.filter.owner", "Owner"),
    ("ui.list.filter.owner_help", "a user's name, whole"),
    ("ui.list.filter.scope", "Whose"),
    ("ui.list.filter.tag", "Tag"),
    ("ui.list.filter.tag_help", "key, or key=value"),
    ("ui.list.filter.tag_part.key", "key"),
    ("ui.list.filter.tag_part.value", "value"),
    (
        "ui.list.filter.tag_refused",
        "No tag could match this filter, so the list does not apply it. Its {part}: {reason}",
    ),
    (
        "ui.list.filter.tag_several",
        "The list filters by one tag at a time (key, or key=value), so it does not apply this filter: keep one tag.",
    ),
    ("ui.list.filter.type", "Type"),
    ("ui.list.filters", "Filters"),
    ("ui.list.filters_toggle", "Filters"),
    ("ui.list.filters_toggle#on", "Filters ({count} on): {which}"),
    ("ui.list.filters_toggle.between", "; "),
    ("ui.list.filters_toggle.item", "{filter}: {value}"),
    ("ui.list.ignored", "Not applied from the address: {pairs}."),
    (
        "ui.list.ignored.beside_mine",
        "a group is not applied beside mine=true",
    ),
    ("ui.list.ignored.item", "{pair} ({reason})"),
    ("ui.list.ignored.mine", "mine takes true or false"),
    ("ui.list.ignored.more", "{count} more"),
    (
        "ui.list.ignored.owner_beside_mine",
        "an owner is not applied beside mine=true",
    ),
    (
        "ui.list.ignored.phase",
        "not a phase the list shows; it shows {phases}",
    ),
    (
        "ui.list.ignored.repeated",
        "given again later: only the last is read",
    ),
    (
        "ui.list.ignored.type",
        "not a task type; the types are {types}",
    ),
    ("ui.list.ignored.unknown", "not a filter this list knows"),
    ("ui.list.left", "No longer in this list"),
    ("ui.list.left#deleted", "No longer in this list: deleted"),
    ("ui.list.left#now", "No longer in this list: now {phase}"),
    ("ui.list.loading", "Loading tasks…"),
    ("ui.list.more", "Load more"),
    ("ui.list.new", "Create task"),
    ("ui.list.scope.all", "Everything I can see"),
    ("ui.list.scope.group", "Project group {group}"),
    (
        "ui.list.scope.group_other",
        "Project group {group} (not one of yours: only its tasks you may see)",
    ),
    ("ui.list.scope.mine", "Mine"),
    ("ui.list.shown", "{count} shown"),
    (
        "ui.list.stop_asked",
        "Stop was asked for {name}: it ends once its replicas have exited.",
    ),
    ("ui.list.stop_named", "Stop {name}"),
    ("ui.list.stop_over", "Task {name}"),
    ("ui.list.stopped", "{name} was stopped."),
    ("ui.list.table", "Task table"),
    ("ui.list.task_zone", "In the task's time zone: {time}"),
    ("ui.list.title", "Training tasks"),
    ("ui.list.updated", "Updated {time}"),
    ("ui.phase.deleted", "Deleted"),
    ("ui.phase.failed", "Failed"),
    ("ui.phase.queued", "Queued"),
    ("ui.phase.retrying", "Retrying"),
    ("ui.phase.running", "Running"),
    ("ui.phase.scheduling", "Scheduling"),
    ("ui.phase.stopped", "Stopped"),
    ("ui.phase.stopping", "Stopping"),
    ("ui.phase.succeeded", "Succeeded"),
    ("ui.shared.back", "Open the console"),
    (
        "ui.shared.clone_help",
        "The create form, from a copy of this spec; its hidden values are masked, to be typed again.",
    ),
    (
        "ui.shared.link_dead",
        "This link opens no task: it was revoked, its task was deleted, or it is not whole. Ask the task's owner for a new one.",
    ),
    (
        "ui.shared.link_dead#since",
        "This link no longer opens the task: it was revoked, or the task was deleted. The page shows the task as it was last read; ask the task's owner for a new link.",
    ),
    (
        "ui.shared.read_only",
        "This is a read-only view shared with you; it follows the task while the task can still change.",
    ),
    (
        "ui.shared.read_only#ended",
        "This is a read-only view shared with you, as it was last read through its link.",
    ),
    (
        "ui.shared.spec_masked",
        "Hidden values are masked in a shared task, whoever reads it, its owner too.",
    ),
    ("ui.shared.task_page", "Open the task's page"),
    ("ui.shared.title", "Shared task {name} (read-only)"),
    (
        "ui.shared.title#dead",
        "Shared task {name} (read-only): this link no longer opens it",
    ),
    (
        "ui.shared.title#phase",
        "Shared task {name} (read-only): {phase}",
    ),
    ("ui.widget.title", "Embedded task form"),
    ("ui.widget.validator", "Validator"),
    ("unit.gpu", "GPUs"),
    ("unit.gpu_one", "GPU"),
    ("unit.memory_gib", "GiB of memory"),
    ("unit.vcpu", "vCPUs"),
    ("unit.vcpu_one", "vCPU"),
    ("value.invalid", "is not valid: expected {expected}"),
    (
        "value.invalid#found",
        "is not valid: expected {expected}, found {found}",
    ),
    ("value.invalid#json", "is not valid JSON: {detail}"),
    (
        "value.invalid#known_field",
        "is not a known field; fields here: {options}",
    ),
    ("value.invalid#once", "appears more than once; keep one"),
    (
        "value.invalid#too_large",
        "is too large for this field: {found}; enter a smaller number",
    ),
    ("value.required", "is required"),
];
