//! Simplified Chinese messages: one `(key, template)` pair per text, sorted by key.
//!
//! See the parent module for the key scheme and the `{name}` placeholders.

/// Every message, sorted by key.
pub(super) const MESSAGES: &[(&str, &str)] = &[
    ("advanced.alerts.target.email", "不是有效的邮箱地址"),
    ("advanced.alerts.target.url", "必须是 https:// 开头的 URL"),
    ("advanced.alerts.threshold.invalid", "请设置不小于 1 的阈值"),
    (
        "advanced.fault_tolerance.max_retries.out_of_range",
        "必须在 1 到 100 之间",
    ),
    (
        "advanced.image_pull_retries.out_of_range",
        "必须为 -1（不熔断）、0（首次失败即失败）或正整数",
    ),
    (
        "advanced.monitoring.path.invalid",
        "必须以 / 开头，例如 /metrics",
    ),
    (
        "advanced.monitoring.port.master",
        "{port} 是主节点端口，请更换",
    ),
    (
        "advanced.monitoring.port.out_of_range",
        "必须在 1 到 65535 之间",
    ),
    (
        "advanced.monitoring.port.ray",
        "{port} 是 Ray 的{name}端口，请更换",
    ),
    (
        "advanced.monitoring.port.ssh",
        "22 端口已被 Pod 间免密登录占用，请更换",
    ),
    (
        "advanced.ssh.single_pod",
        "任务只有一个 Pod，Pod 间免密登录无对端",
    ),
    (
        "basic.cluster.unknown",
        "不属于所选区域，请从列表中选择集群",
    ),
    ("basic.name_prefix.bad_end", "必须以字母或数字结尾"),
    ("basic.name_prefix.bad_start", "必须以小写字母开头"),
    (
        "basic.name_prefix.invalid_chars",
        "只能使用小写字母、数字和中划线",
    ),
    (
        "basic.name_prefix.too_long",
        "当前 {len} 个字符，此任务类型和副本数下最多 {max} 个字符",
    ),
    (
        "basic.project_group.not_member",
        "您不是该项目组成员，请选择您所在的项目组",
    ),
    ("basic.region.unknown", "不是可用的区域，请从列表中选择"),
    ("basic.tags.duplicate", "标签键重复，请只保留一个"),
    (
        "basic.tags.key.invalid",
        "请使用 1–63 个字母、数字、'-'、'_' 或 '.'，并以字母或数字开头和结尾",
    ),
    (
        "basic.tags.key.reserved",
        "该前缀为平台或调度组件保留，请使用自己的前缀或不加前缀",
    ),
    (
        "basic.tags.not_maintained",
        "已开启标签验证，请选择已维护的标签",
    ),
    ("basic.tags.too_many", "最多 {max} 个标签，请删除多余标签"),
    (
        "basic.tags.value.invalid",
        "最多 63 个字母、数字、'-'、'_' 或 '.'，并以字母或数字开头和结尾",
    ),
    ("basic.time_zone.unknown", "不是列表中的时区"),
    (
        "command.distributed_env_unused",
        "未使用 MASTER_ADDR、MASTER_PORT、WORLD_SIZE、RANK，各副本可能各自独立训练",
    ),
    ("command.too_long", "超过 {kib} KiB"),
    (
        "command.torchrun.nnodes",
        "--nnodes 为 {written}，但任务有 {replicas} 个副本，建议使用 \"$WORLD_SIZE\"",
    ),
    (
        "command.torchrun.nproc_per_node",
        "--nproc_per_node 为 {written}，但单个副本有 {gpus} 张 GPU",
    ),
    ("compute.demand.overflow", "资源需求过大，无法计算"),
    ("compute.gang.never_fits", "任务永远无法启动：{reason}"),
    (
        "compute.gang.skipped",
        "已跳过：该规格永远无法启动（{reason}），将使用列表中的下一个规格",
    ),
    ("compute.gang.will_queue", "任务将排队：{reason}"),
    (
        "compute.idle.guarantee_not_allowed",
        "闲时资源不支持资源保障，请清除",
    ),
    (
        "compute.idle.priority_not_allowed",
        "闲时资源不支持设置优先级，请清除",
    ),
    (
        "compute.kind.field_unused",
        "{kind}不使用此项，提交时将被忽略",
    ),
    (
        "compute.pool.availability_exceeded",
        "需要 {requested}，资源池当前可用 {remaining}，任务将排队",
    ),
    (
        "compute.pool.kind_mismatch",
        "该资源池不支持此资源类型，请选择其他资源池",
    ),
    (
        "compute.pool.none_for_kind",
        "该集群没有支持此资源类型的资源池，请切换区域、集群或资源类型",
    ),
    (
        "compute.pool.unknown",
        "不是该集群中的资源池，请从列表中选择",
    ),
    (
        "compute.quota.exceeded",
        "需要 {requested} {unit}，剩余配额 {remaining}，缺少 {short}",
    ),
    ("compute.quota.none", "您在该资源池下没有此规格的配额"),
    (
        "compute.quota.skipped",
        "已跳过：需要 {spec} 配额 {short}，将使用列表中的下一个规格",
    ),
    (
        "compute.quota.skipped#no_quota",
        "已跳过：您在该资源池下没有 {spec} 的配额，将使用列表中的下一个规格",
    ),
    (
        "compute.quota.skipped.item",
        "{requested} {unit}（剩余 {remaining}）",
    ),
    (
        "compute.spec.not_in_pool",
        "资源池中没有可运行该规格的节点，请更换规格或资源池",
    ),
    (
        "compute.spec.type_mismatch",
        "不是 {type} 实例规格，请选择 {type} 规格",
    ),
    (
        "compute.spec.unknown",
        "不是该集群中的实例规格，请从列表中选择",
    ),
    ("compute.specs.duplicate", "已在列表中，请删除重复项"),
    (
        "compute.specs.mixed_gpu_models",
        "包含多种 GPU 型号，请仅选择训练代码兼容的规格",
    ),
    (
        "compute.spot.unavailable",
        "当前筛选范围内暂无可用 Spot 实例，请切换区域、集群、资源类型或实例类型后再确认",
    ),
    (
        "compute.units_per_node.out_of_range",
        "必须在 1 到 {max} 之间",
    ),
    ("compute.workers.out_of_range", "必须在 0 到 {max} 之间"),
    ("datasets.unknown", "不是该集群中的数据集，请从列表中选择"),
    ("env.name.duplicate", "与上方的环境变量重名，请只保留一个"),
    (
        "env.name.invalid",
        "只能包含字母、数字和下划线，且不能以数字开头",
    ),
    (
        "env.name.platform_injected",
        "平台会注入该变量，以平台的值为准",
    ),
    ("env.name.reserved_prefix", "不能以 KUBERNETES_ 开头"),
    (
        "env.name.shadows_persistent",
        "与持久环境变量同名，以当前任务配置为准",
    ),
    ("env.value.nul", "包含 NUL 字符，请删除"),
    ("env.value.too_long", "超过 {kib} KiB"),
    (
        "env.values.too_long",
        "所有变量值合计 {total_kib} KiB，最多 {max_kib} KiB",
    ),
    ("field.advanced.alerts.channel.help", "邮件或 Webhook。"),
    ("field.advanced.alerts.channel.label", "通知方式"),
    ("field.advanced.alerts.event.help", "触发告警的事件。"),
    ("field.advanced.alerts.event.label", "告警事件"),
    ("field.advanced.alerts.help", "在任务创建时同步配置告警。"),
    ("field.advanced.alerts.label", "告警订阅"),
    (
        "field.advanced.alerts.target.help",
        "邮箱地址，或接收 POST 请求的 https:// URL。",
    ),
    ("field.advanced.alerts.target.label", "通知对象"),
    (
        "field.advanced.alerts.threshold.help",
        "排队分钟数或运行小时数，仅阈值类事件需要，不小于 1。",
    ),
    ("field.advanced.alerts.threshold.label", "阈值"),
    (
        "field.advanced.fault_tolerance.enabled.help",
        "开启后，平台可在任务异常时按策略进行重试或恢复。自动重试不能解决代码、数据路径、显存不足等需要修改配置或脚本的问题。",
    ),
    (
        "field.advanced.fault_tolerance.enabled.label",
        "启用自动容错",
    ),
    ("field.advanced.fault_tolerance.label", "启用自动容错"),
    (
        "field.advanced.fault_tolerance.max_retries.help",
        "首次运行之后的重试次数，1–100。",
    ),
    (
        "field.advanced.fault_tolerance.max_retries.label",
        "最大重试次数",
    ),
    (
        "field.advanced.image_pull_retries.help",
        "配置镜像拉取失败的最大重试次数。配置为 0 表示首次失败即判定失败，配置为 -1 表示关闭本任务的镜像拉取熔断，配置为正整数表示使用本任务自定义阈值；留空使用默认值。",
    ),
    ("field.advanced.image_pull_retries.label", "镜像拉取容错"),
    ("field.advanced.label", "高级选项"),
    (
        "field.advanced.monitoring.enabled.help",
        "开启后接入任务自定义监控指标。训练代码需要自行暴露对应端口和路径。",
    ),
    ("field.advanced.monitoring.enabled.label", "监控看板"),
    ("field.advanced.monitoring.label", "监控看板"),
    (
        "field.advanced.monitoring.path.help",
        "指标的 HTTP 路径，例如 /metrics。",
    ),
    ("field.advanced.monitoring.path.label", "指标路径"),
    (
        "field.advanced.monitoring.port.help",
        "训练代码暴露指标的端口，1–65535。",
    ),
    ("field.advanced.monitoring.port.label", "指标端口"),
    (
        "field.advanced.ssh.help",
        "开启后自动启用多 Pod 之间的免密码 SSH 登录，并生成节点信息，分别保存在 /root/hostfile 和 /root/hostfile.hostname 文件中。",
    ),
    ("field.advanced.ssh.label", "Pod 间免密登录"),
    (
        "field.basic.cluster.help",
        "所选区域中的集群，决定可选资源池、镜像、存储、数据集和模型。",
    ),
    ("field.basic.cluster.label", "集群"),
    ("field.basic.label", "基本信息"),
    (
        "field.basic.name_prefix.help",
        "任务名称前缀。平台会在名称前缀后追加唯一后缀生成最终任务名。名称建议使用小写字母、数字和中划线，并以字母或数字开头和结尾。",
    ),
    ("field.basic.name_prefix.label", "名称前缀"),
    (
        "field.basic.project_group.help",
        "任务归属的项目组，用于资源和权限归类。",
    ),
    ("field.basic.project_group.label", "项目组"),
    (
        "field.basic.region.help",
        "决定任务运行位置，也会影响可选资源池、镜像、存储、数据集和模型。",
    ),
    ("field.basic.region.label", "区域"),
    (
        "field.basic.tags.help",
        "为任务打标签，便于归类、筛选和审计。管理员开启标签验证后，提交任务时可能需要选择已维护的标签。",
    ),
    (
        "field.basic.tags.key.help",
        "1–63 个字母、数字、'-'、'_' 或 '.'，并以字母或数字开头和结尾。",
    ),
    ("field.basic.tags.key.label", "标签键"),
    ("field.basic.tags.label", "标签"),
    (
        "field.basic.tags.value.help",
        "最多 63 个字母、数字、'-'、'_' 或 '.'，可以为空。",
    ),
    ("field.basic.tags.value.label", "标签值"),
    (
        "field.basic.task_type.help",
        "选择任务类型。支持 PyTorchJob 和 RayJob 两种任务类型。不同任务类型会影响后续资源配置、启动方式和专有配置。",
    ),
    ("field.basic.task_type.label", "任务类型"),
    (
        "field.basic.time_zone.help",
        "影响任务日志和时间字段的展示。",
    ),
    ("field.basic.time_zone.label", "时区"),
    (
        "field.basic.visible_in_group.help",
        "控制任务是否在项目组内可见。不公开时，通常仅任务所有者可见。",
    ),
    ("field.basic.visible_in_group.label", "在项目组内公开"),
    (
        "field.compute.accept_idle.help",
        "仅预留实例：任务可接受闲时补充时开启。",
    ),
    ("field.compute.accept_idle.label", "接受闲时资源"),
    (
        "field.compute.guarantee.help",
        "关键训练、长时间训练或恢复成本较高的任务，建议优先使用支持资源保障的配置。闲时资源不支持资源保障。",
    ),
    ("field.compute.guarantee.label", "资源保障"),
    (
        "field.compute.head_spec.help",
        "仅 RayJob。每个副本（包括 Head）的资源需求 = 其实例规格的单份资源 × 单节点实例规格数；Head 设置此规格时使用该规格，否则使用与 Worker 相同的规格。",
    ),
    ("field.compute.head_spec.label", "Head 实例规格"),
    (
        "field.compute.idle_stability.help",
        "闲时资源预计可持续的时长，使用闲时资源或接受闲时资源时必填。",
    ),
    ("field.compute.idle_stability.label", "闲时稳定性等级"),
    (
        "field.compute.instance_type.help",
        "选择 GPU 或 CPU，再在实例列表中选择具体实例规格。",
    ),
    ("field.compute.instance_type.label", "实例类型"),
    (
        "field.compute.kind.help",
        "不同资源类型会影响可选实例、配额校验、资源保障和中断风险。",
    ),
    ("field.compute.kind.label", "资源类型"),
    ("field.compute.label", "计算资源"),
    (
        "field.compute.pool.help",
        "任务运行的资源池，预留实例可选择共享资源池或专属资源池。",
    ),
    ("field.compute.pool.label", "资源池"),
    (
        "field.compute.prefer_idle.help",
        "预留实例接受闲时资源时，优先使用闲时资源。",
    ),
    ("field.compute.prefer_idle.label", "优先闲时"),
    (
        "field.compute.priority.help",
        "优先级会影响任务排队和调度顺序。闲时资源不支持设置优先级。",
    ),
    ("field.compute.priority.label", "资源优先级"),
    (
        "field.compute.specs.help",
        "选择多个实例规格时，平台按优先级从高到低尝试调度，优先使用排在前面的实例。仅选择训练代码兼容的规格。",
    ),
    ("field.compute.specs.label", "实例规格"),
    (
        "field.compute.units_per_node.help",
        "每个副本（包括 RayJob 的 Head）的资源需求 = 其实例规格的单份资源 × 单节点实例规格数。Head 单独配置实例规格时使用该规格，否则使用与 Worker 相同的规格。",
    ),
    ("field.compute.units_per_node.label", "单节点实例规格数"),
    (
        "field.compute.workers.help",
        "主节点默认为 1 且不可更改。工作节点数可填 0，用于单机训练；分布式训练时，工作节点数会影响需要同时调度的副本数量。",
    ),
    ("field.compute.workers.label", "工作节点"),
    (
        "field.environment.command.help",
        "容器启动后执行的训练命令，平台以 bash -c 执行。PyTorchJob 可在命令中使用平台自动注入的分布式训练环境变量；RayJob 的命令通常是 Ray entrypoint，例如 python main.py。",
    ),
    ("field.environment.command.label", "命令"),
    (
        "field.environment.datasets.help",
        "挂载数据集，供训练脚本读取输入数据。通常作为只读输入使用，需要填写容器内挂载路径。",
    ),
    ("field.environment.datasets.id.help", "该集群中的数据集。"),
    ("field.environment.datasets.id.label", "数据集"),
    ("field.environment.datasets.label", "数据集"),
    (
        "field.environment.datasets.path.help",
        "容器内的绝对路径，建议使用 /volume、/mnt 等开头的独立目录。",
    ),
    ("field.environment.datasets.path.label", "挂载路径"),
    (
        "field.environment.env.help",
        "为当前任务添加临时环境变量，可用于传递路径、参数、开关或凭据。若与持久环境变量同名，以当前任务配置为准。",
    ),
    (
        "field.environment.env.hidden.help",
        "隐藏后，分享任务时其他用户看到的值会以掩码展示。",
    ),
    ("field.environment.env.hidden.label", "隐藏"),
    ("field.environment.env.label", "环境变量"),
    (
        "field.environment.env.name.help",
        "只能包含字母、数字和下划线，不能以数字开头，也不能以 KUBERNETES_ 开头。",
    ),
    ("field.environment.env.name.label", "变量名"),
    ("field.environment.env.value.help", "环境变量的取值。"),
    ("field.environment.env.value.label", "变量值"),
    (
        "field.environment.image.help",
        "支持选择内置镜像、自定义镜像或直接填写镜像地址。镜像需要包含训练脚本运行所需框架和依赖。RayJob 需要使用包含 Ray 运行环境的镜像。",
    ),
    ("field.environment.image.label", "镜像"),
    (
        "field.environment.image.source.help",
        "内置镜像、自定义镜像或镜像地址。",
    ),
    ("field.environment.image.source.label", "镜像来源"),
    (
        "field.environment.image.value.help",
        "从列表中选择的镜像，或形如 registry/repo:tag 的镜像地址。",
    ),
    ("field.environment.image.value.label", "镜像"),
    ("field.environment.label", "环境信息"),
    (
        "field.environment.models.help",
        "挂载模型，供微调、继续训练或评估使用，需要填写容器内挂载路径。",
    ),
    ("field.environment.models.id.help", "该集群中的模型。"),
    ("field.environment.models.id.label", "模型"),
    ("field.environment.models.label", "模型"),
    (
        "field.environment.models.path.help",
        "容器内的绝对路径，建议使用 /volume、/mnt 等开头的独立目录。",
    ),
    ("field.environment.models.path.label", "挂载路径"),
    (
        "field.environment.storage.help",
        "挂载 Volume，用于保存代码、checkpoint、训练输出和模型文件。需要同时选择存储并填写 Pod 中挂载路径。同一存储卷在同一挂载路径只能挂载一次。",
    ),
    ("field.environment.storage.id.help", "该集群中的存储卷。"),
    ("field.environment.storage.id.label", "存储"),
    ("field.environment.storage.label", "存储"),
    (
        "field.environment.storage.path.help",
        "容器内的绝对路径，建议使用 /volume、/mnt 等开头的独立目录。",
    ),
    ("field.environment.storage.path.label", "挂载路径"),
    (
        "field.ray.autoscaling.enabled.help",
        "开启后，Ray 可根据负载调整 Worker 数量。",
    ),
    ("field.ray.autoscaling.enabled.label", "自动扩缩容"),
    (
        "field.ray.autoscaling.idle_timeout_secs.help",
        "Worker 空闲多少秒后被回收。",
    ),
    ("field.ray.autoscaling.idle_timeout_secs.label", "回收时间"),
    ("field.ray.autoscaling.label", "自动扩缩容"),
    (
        "field.ray.autoscaling.max_workers.help",
        "Worker 数量上限，配额校验和调度按此数量计算。",
    ),
    ("field.ray.autoscaling.max_workers.label", "扩容上限"),
    (
        "field.ray.autoscaling.min_workers.help",
        "Worker 数量下限，需满足 缩容下限 ≤ 工作节点数 ≤ 扩容上限。",
    ),
    ("field.ray.autoscaling.min_workers.label", "缩容下限"),
    (
        "field.ray.autoscaling.upscaling_mode.help",
        "默认、激进或保守。",
    ),
    ("field.ray.autoscaling.upscaling_mode.label", "扩容模式"),
    (
        "field.ray.debug.enabled.help",
        "开启后，RayJob 结束时保留 Ray 集群一段时间，便于进入 Head Pod 排查。",
    ),
    ("field.ray.debug.enabled.label", "Debug 模式"),
    (
        "field.ray.debug.keep_secs.help",
        "集群保留时间，1–86400 秒。",
    ),
    ("field.ray.debug.keep_secs.label", "集群保存时间"),
    ("field.ray.debug.label", "Debug 模式"),
    ("field.ray.label", "RayJob 配置"),
    (
        "field.ray.runtime_env.help",
        "填写 Ray Runtime Env，使用 Ray 支持的 YAML 格式，可用于声明运行时依赖、环境变量等；不需要额外运行时配置时可以留空。",
    ),
    ("field.ray.runtime_env.label", "Runtime Env"),
    (
        "field.ray.shared_storage.clean_on_exit.help",
        "勾选后，任务结束时清理本任务在共享存储中的数据；不勾选则保留数据，便于调试，但需要关注存储空间占用。",
    ),
    (
        "field.ray.shared_storage.clean_on_exit.label",
        "任务退出后清理共享存储数据",
    ),
    (
        "field.ray.shared_storage.enabled.help",
        "将同一个 Volume 挂载到 RayJob 各 Pod 的 /tmp/ray 目录，用于跨 Pod 共享 checkpoint、日志、中间结果或缓存数据。",
    ),
    ("field.ray.shared_storage.enabled.label", "挂载共享存储"),
    ("field.ray.shared_storage.label", "挂载共享存储"),
    (
        "field.ray.shared_storage.volume.help",
        "需要选择支持多 Pod 读写（RWX）的 Volume。",
    ),
    ("field.ray.shared_storage.volume.label", "共享存储"),
    ("field.version.help", "任务规格的格式版本，当前支持版本 1。"),
    ("field.version.label", "规格版本"),
    (
        "image.address.invalid",
        "不是有效的镜像地址，格式如 registry/repo:tag 或 registry/repo@sha256:…",
    ),
    (
        "image.pytorch.missing",
        "不包含 PyTorch，PyTorchJob 需要使用 PyTorch 镜像",
    ),
    (
        "image.ray.missing",
        "不包含 Ray 运行环境，RayJob 需要使用 Ray 镜像",
    ),
    (
        "image.ray.unverified",
        "无法校验镜像地址中的 Ray 运行环境，请确认镜像包含 Ray",
    ),
    (
        "image.ray_dashboard.missing",
        "镜像缺少 Ray Dashboard 依赖，Dashboard 功能将受限",
    ),
    ("image.unknown", "不是该集群中的镜像，请从列表中选择"),
    ("list.and", "、"),
    ("list.sep", "、"),
    ("models.unknown", "不是该集群中的模型，请从列表中选择"),
    (
        "mount.path.conflict",
        "与 {other} 的挂载路径相同，请更换路径",
    ),
    (
        "mount.path.hides_ssh_hostfile",
        "会覆盖 Pod 间免密登录写入的 /root/hostfile，建议使用 /volume 或 /mnt 开头的目录",
    ),
    ("mount.path.invalid_chars", "不能包含 : 或控制字符"),
    (
        "mount.path.nested",
        "位于 {parent} 挂载目录之内，两者会互相遮盖",
    ),
    ("mount.path.not_absolute", "必须是以 / 开头的绝对路径"),
    (
        "mount.path.not_normalized",
        "不能包含 ..、.、// 或以 / 结尾",
    ),
    (
        "mount.path.outside_recommended",
        "建议使用 /volume、/mnt 等开头的独立目录",
    ),
    (
        "mount.path.ray_reserved",
        "/tmp/ray 已被 RayJob 共享存储占用",
    ),
    ("mount.path.root", "不能挂载到根目录 /"),
    (
        "mount.path.shadows_image",
        "会覆盖镜像 {dir} 下的文件，建议使用 /volume 或 /mnt 开头的目录",
    ),
    ("mount.path.system", "不能挂载到 /proc、/sys 或 /dev"),
    (
        "never.head_too_large",
        "Head 需要 {need} {unit}，最大的节点只有 {largest_total}",
    ),
    (
        "never.no_matching_node",
        "资源池中没有 {gpu_model} GPU 节点",
    ),
    ("never.no_matching_node#cpu", "资源池中没有 CPU 节点"),
    (
        "never.pool_too_small",
        "即使资源池全部空闲，也只能同时容纳 {replicas} 个副本中的 {capacity} 个",
    ),
    (
        "never.replica_too_large",
        "单个副本需要 {need} {unit}，最大的节点只有 {largest_total}",
    ),
    ("quantity", "{amount} {unit}"),
    (
        "queue.head_has_no_room",
        "空闲最多的节点只有 {largest_free} {unit}，Head 需要 {need}",
    ),
    (
        "queue.no_node_hosts_one",
        "空闲最多的节点只有 {largest_free} {unit}，单个副本需要 {need}",
    ),
    (
        "queue.not_enough_at_once",
        "空闲节点只能同时容纳 {replicas} 个副本中的 {placeable} 个",
    ),
    (
        "ray.autoscaling.range",
        "需满足 缩容下限 ≤ 工作节点数 ≤ 扩容上限，当前为 {min} ≤ {workers} ≤ {max}",
    ),
    (
        "ray.debug.keep_secs.out_of_range",
        "必须在 1 到 86400 秒之间",
    ),
    (
        "ray.runtime_env.alias",
        "不支持 YAML 锚点和别名（&name、*name），请直接写出取值",
    ),
    (
        "ray.runtime_env.env_vars",
        "env_vars 必须是名称到字符串值的映射，yes、8 等取值请加引号",
    ),
    ("ray.runtime_env.invalid_yaml", "不是有效的 YAML：{detail}"),
    (
        "ray.runtime_env.key_not_string",
        "所有键都必须是字符串，null、true、1 等键请加引号",
    ),
    ("ray.runtime_env.not_mapping", "必须是键值映射形式的 YAML"),
    (
        "ray.runtime_env.pip_and_conda",
        "Ray 不允许同时使用 pip 和 conda，请只保留一个",
    ),
    (
        "ray.runtime_env.tag",
        "Ray 的 YAML 解析器不支持标签 {tag}，请删除",
    ),
    ("ray.runtime_env.too_long", "超过 {kib} KiB"),
    ("ray.runtime_env.unknown_key", "Ray 不支持键 '{key}'"),
    (
        "ray.shared_storage.not_rwx",
        "共享存储需要支持多 Pod 读写（RWX）的 Volume",
    ),
    ("ray_port.client", " Client "),
    ("ray_port.dashboard", " Dashboard "),
    ("ray_port.dashboard_agent", " Dashboard Agent "),
    ("ray_port.gcs", " GCS "),
    ("ray_port.metrics_export", "指标导出"),
    ("ray_port.own", "内部"),
    ("resource_kind.idle", "闲时资源"),
    ("resource_kind.on_demand", "按量实例"),
    ("resource_kind.reserved", "预留实例"),
    ("resource_kind.spot", "Spot 实例"),
    ("shape.expected.boolean", "true 或 false"),
    ("shape.expected.integer", "整数（可为负数）"),
    ("shape.expected.list", "列表"),
    ("shape.expected.number", "数字"),
    ("shape.expected.object", "对象"),
    ("shape.expected.one_of", "以下之一：{options}"),
    ("shape.expected.text", "文本"),
    ("shape.expected.whole_number", "整数"),
    ("shape.found.list", "列表"),
    ("shape.found.number", "数字 {value}"),
    ("shape.found.object", "对象"),
    ("shape.found.text", "文本 \"{value}\""),
    (
        "spec.version.unsupported",
        "不支持任务规格版本 {found}，请使用版本 {supported}",
    ),
    (
        "storage.duplicate",
        "同一存储卷在同一挂载路径只能挂载一次，请删除重复项",
    ),
    (
        "storage.none",
        "未挂载存储：任务结束后本地磁盘数据将丢失，请挂载存储保存输出和检查点",
    ),
    (
        "storage.volume.rwo_multi_pod",
        "该存储仅支持单节点挂载（RWO），任务有 {pods} 个 Pod，请使用 RWX 存储",
    ),
    (
        "storage.volume.unknown",
        "不是该集群中的存储，请从列表中选择",
    ),
    ("ui.app.load_failed", "无法加载资源目录：{detail}"),
    ("ui.app.loading", "正在加载资源目录…"),
    ("ui.app.not_found", "没有这个页面：{path}"),
    ("ui.detail.back", "全部任务"),
    ("ui.detail.title", "任务 {name}"),
    ("ui.form.submit", "提交"),
    ("ui.form.title", "创建训练任务"),
    ("ui.list.new", "创建任务"),
    ("ui.list.title", "训练任务"),
    ("ui.phase.deleted", "已删除"),
    ("ui.phase.failed", "失败"),
    ("ui.phase.queued", "排队中"),
    ("ui.phase.retrying", "重试中"),
    ("ui.phase.running", "运行中"),
    ("ui.phase.scheduling", "调度中"),
    ("ui.phase.stopped", "已停止"),
    ("ui.phase.succeeded", "成功"),
    ("ui.shared.read_only", "这是分享给你的只读视图。"),
    ("ui.shared.title", "共享的任务 {name}（只读）"),
    ("ui.widget.title", "嵌入式任务表单"),
    ("ui.widget.validator", "校验器"),
    ("unit.gpu", "张 GPU"),
    ("unit.memory_gib", "GiB 内存"),
    ("unit.vcpu", "个 vCPU"),
    ("value.invalid", "格式不正确：应为{expected}"),
    (
        "value.invalid#found",
        "格式不正确：应为{expected}，实际为{found}",
    ),
    ("value.invalid#json", "不是有效的 JSON：{detail}"),
    (
        "value.invalid#known_field",
        "不是可识别的字段，可用字段：{options}",
    ),
    ("value.required", "必填"),
];
