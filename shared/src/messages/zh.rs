//! Simplified Chinese messages: one `(key, template)` pair per text, sorted by key.
//!
//! See the parent module for the key scheme and the `{name}` placeholders.

/// Every message, sorted by key.
pub(super) const MESSAGES: &[(&str, &str)] = &[
    ("advanced.alerts.duplicate", "告警订阅重复，请只保留一个"),
    ("advanced.alerts.target.email", "不是有效的邮箱地址"),
    (
        "advanced.alerts.target.masked",
        "这是地址的掩码，请填写地址",
    ),
    ("advanced.alerts.target.spaces", "首尾有空格"),
    (
        "advanced.alerts.target.url",
        "必须是 https:// 开头的 ASCII URL（非 ASCII 主机名写作 xn--…，其余字符用 % 转义），最长 2048 个字符",
    ),
    (
        "advanced.alerts.threshold.invalid",
        "请设置不小于 1 的整数阈值",
    ),
    (
        "advanced.alerts.threshold.unused",
        "该事件不需要阈值，设置的阈值不生效，请删除阈值",
    ),
    (
        "advanced.alerts.too_many",
        "最多 {max} 个告警订阅，请删除多余告警订阅",
    ),
    (
        "advanced.fault_tolerance.max_retries.out_of_range",
        "必须是 1 到 100 之间的整数",
    ),
    (
        "advanced.image_pull_retries.out_of_range",
        "必须为 -1（关闭本任务的镜像拉取熔断）、0（首次失败即判定失败）或正整数",
    ),
    (
        "advanced.monitoring.path.invalid",
        "必须是以 / 开头的 URL 路径，例如 /metrics，只能含 ASCII 字母、数字和 -._~!$&'()*+,;=:@/，最长 1024 个字符",
    ),
    (
        "advanced.monitoring.port.master",
        "{port} 是主节点端口，请更换",
    ),
    (
        "advanced.monitoring.port.out_of_range",
        "必须是 1 到 65535 之间的整数",
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
        "任务只有一个 Pod，Pod 间免密登录没有可连接的其他 Pod",
    ),
    (
        "basic.cluster.unknown",
        "不属于所选区域，请从列表中选择集群",
    ),
    (
        "basic.name_prefix.bad_end",
        "必须以小写字母或数字结尾，不能以“-”结尾",
    ),
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
        "连同前缀最多 63 个字符：字母、数字、“-”、“_”或“.”，首尾为字母或数字；前面可加小写域名和“/”",
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
        "最多 63 个字母、数字、“-”、“_”或“.”，并以字母或数字开头和结尾",
    ),
    (
        "basic.task_type.ray_unused",
        "PyTorchJob 不使用任务配置中的 RayJob 配置和 Head 实例规格，提交时将被移除",
    ),
    ("basic.time_zone.unknown", "不是列表中的时区"),
    (
        "command.distributed_env_unused",
        "未使用 MASTER_ADDR、MASTER_PORT、WORLD_SIZE、RANK，各副本可能各自独立训练",
    ),
    ("command.nul", "包含 NUL 字符，进程无法以此启动，请删除"),
    (
        "command.pasted_char",
        "第 {line} 行有 {char}，shell 不会把它当作引号、短横线、空格或行尾（多由粘贴带入）：请用键盘重新输入",
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
        "已跳过：该规格永远无法启动（{reason}），将使用列表中的其他规格",
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
        "{kind}不使用此项，提交时将被移除",
    ),
    (
        "compute.pool.availability_exceeded",
        "需要 {requested}，资源池当前可用 {remaining}，任务将排队",
    ),
    (
        "compute.pool.availability_exceeded#idle",
        "需要 {requested}，所选稳定性等级及以上的闲时资源当前可用 {remaining}，任务将排队",
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
        "已跳过：需要 {spec} 配额 {short}，将使用列表中的其他规格",
    ),
    (
        "compute.quota.skipped#no_quota",
        "已跳过：您在该资源池下没有 {spec} 的配额，将使用列表中的其他规格",
    ),
    (
        "compute.quota.skipped.item",
        "{requested} {unit}（剩余 {remaining}，缺少 {short}）",
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
        "必须是 1 到 {max} 之间的整数（规格 {spec} 单节点最多 {max}）",
    ),
    (
        "compute.units_per_node.out_of_range#no_max",
        "必须是不小于 1 的整数",
    ),
    (
        "compute.units_per_node.out_of_range#one",
        "必须为 1（规格 {spec} 单节点最多 1）",
    ),
    ("compute.workers.out_of_range", "必须在 0 到 {max} 之间"),
    ("datasets.unknown", "不是该集群中的数据集，请从列表中选择"),
    ("env.name.duplicate", "与上方的环境变量重名，请只保留一个"),
    (
        "env.name.invalid",
        "只能包含字母、数字和下划线，且不能以数字开头",
    ),
    (
        "env.name.overrides_time_zone",
        "TZ 环境变量（本任务的或持久环境变量）会覆盖时区 {zone}，以该变量的值为准",
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
    (
        "env.value.masked",
        "这是隐藏值的掩码，不是真实的值（草稿和他人的副本不保存隐藏值）；请填写变量值",
    ),
    ("env.value.nul", "包含 NUL 字符，请删除"),
    (
        "env.value.stray_blank",
        "首尾有空格或含有不可见字符（粘贴带入的不换行空格、全角空格或零宽空格）：除非程序需要，请删除",
    ),
    ("env.value.too_long", "超过 {kib} KiB"),
    (
        "env.values.too_long",
        "所有变量值合计 {total} 字节，最多 {max} 字节（{max_kib} KiB）",
    ),
    ("event.accepted", "配额已预留，正在排队"),
    (
        "event.accepted#idle",
        "已接受；任务在闲时资源上启动，不占用配额",
    ),
    (
        "event.accepted#no_quota",
        "正在排队（该资源类型不占用配额）",
    ),
    (
        "event.admitted",
        "第 {attempt} 次运行，使用 {nodes} 个节点，实例规格 {spec}",
    ),
    (
        "event.admitted#head",
        "第 {attempt} 次运行，使用 {nodes} 个节点，实例规格 {spec}，Head 使用 {head}",
    ),
    (
        "event.admitted#head_only",
        "第 {attempt} 次运行，使用 1 个节点，仅 Head，实例规格 {head}：{on}",
    ),
    (
        "event.admitted#head_placed",
        "第 {attempt} 次运行，使用 {nodes} 个节点，实例规格 {spec}，Head 使用 {head}：{on}",
    ),
    (
        "event.admitted#placed",
        "第 {attempt} 次运行，使用 {nodes} 个节点，实例规格 {spec}：{on}",
    ),
    ("event.admitted.on", "{workers}"),
    (
        "event.admitted.on#head",
        "Head 位于 {head}；Worker 位于 {workers}",
    ),
    (
        "event.admitted.on#head_more",
        "Head 位于 {head}；Worker 位于 {workers}，另有 {more} 个节点",
    ),
    ("event.admitted.on#head_only", "Head 位于 {head}"),
    ("event.admitted.on#more", "{workers}，另有 {more} 个节点"),
    ("event.admitted.on.nodes", "{node}、{rest}"),
    ("event.admitted.on.share", "{node} ×{replicas}"),
    (
        "event.admitted.quota_released#idle",
        "预留的配额已释放：任务运行在闲时资源上，不占用配额",
    ),
    ("event.alert.error.answered", "对方应答 {status}"),
    ("event.alert.error.no_answer", "{seconds} 秒内无应答"),
    (
        "event.alert.error.not_tls",
        "该地址和端口以普通 HTTP 应答，而非 HTTPS：请改用接受 HTTPS 的端口",
    ),
    ("event.alert.error.other", "{detail}"),
    (
        "event.alert.error.refused",
        "连接被拒绝：该地址和端口上没有服务接受连接",
    ),
    (
        "event.alert.error.unknown_host",
        "无法识别其主机名：请检查地址",
    ),
    (
        "event.alert.error.untrusted",
        "其证书不受本服务器信任：公司自有的 CA 请配置在 alerts_ca 中",
    ),
    ("event.alert.failed", "“{event}”未能送达 {target}：{error}"),
    (
        "event.alert.mail.body",
        "Berth 任务 {task} 的告警“{event}”：\n{message}\n\n您收到此邮件，是因为该任务为 {target} 订阅了此告警。",
    ),
    (
        "event.alert.mail.subject",
        "[Berth] 任务 {task} 的告警“{event}”",
    ),
    (
        "event.alert.no_email",
        "“{event}”未发送至 {target}：本服务器不发送邮件（只调用 Webhook）",
    ),
    (
        "event.alert.no_relay",
        "“{event}”未发送至 {target}：本服务器未配置邮件中继（--smtp-host）",
    ),
    (
        "event.alert.overdue.queued_longer_than",
        "排队超过 {n} 分钟",
    ),
    (
        "event.alert.overdue.running_longer_than",
        "运行超过 {n} 小时",
    ),
    ("event.alert.sent", "“{event}”已发送至 {target}"),
    ("event.cannot_start", "无法启动：{error}"),
    (
        "event.catalog_changed",
        "资源目录中已没有该任务的运行位置（区域、集群、资源池或实例规格），任务永远无法启动",
    ),
    (
        "event.catalog_changed#cluster",
        "资源目录中已没有该任务所在的集群 {cluster}，任务无法再运行",
    ),
    (
        "event.catalog_changed#never",
        "按资源目录当前的配置，即使没有其他任务运行，该任务的实例规格也都无法放入其资源池或配额，任务永远无法启动",
    ),
    (
        "event.catalog_changed#pool",
        "资源目录中已没有该任务资源类型可用的资源池 {pool}，任务无法再运行",
    ),
    (
        "event.catalog_changed#region",
        "资源目录中已没有该任务所在的区域 {region}，任务无法再运行",
    ),
    (
        "event.catalog_changed#spec",
        "该任务所在的集群已不再提供实例规格 {spec}，任务无法再运行",
    ),
    (
        "event.debug.cluster_kept",
        "Ray 集群在任务结束后保留 {secs} 秒，便于进入 Head Pod 排查，之后由 KubeRay 删除",
    ),
    (
        "event.debug.no_cluster",
        "没有保留 Ray 集群：本服务器的本地后端不启动 Ray 集群，直接运行启动命令（entrypoint）；其输出仍在副本 0（启动命令）的日志中",
    ),
    (
        "event.exited",
        "第 {attempt} 次运行：副本 {replica} 已结束，{how}",
    ),
    (
        "event.exited#role",
        "第 {attempt} 次运行：副本 {replica}（{role}）已结束，{how}",
    ),
    ("event.failed", "{reason}"),
    (
        "event.failed#after_retries",
        "共运行 {attempts} 次，最后一次：{reason}",
    ),
    (
        "event.hold_given_back",
        "您在该实例规格上的配额已调低，排在它前面的任务已占满，该任务现不占用配额；配额有余量时将自动启动",
    ),
    ("event.how.code", "退出码 {code}"),
    ("event.how.code#126", "退出码 126（命令无法运行：不可执行）"),
    ("event.how.code#127", "退出码 127（找不到命令）"),
    (
        "event.how.code#137",
        "退出码 137（进程被强制终止，最常见的原因是内存不足）",
    ),
    ("event.how.code#139", "退出码 139（段错误）"),
    ("event.how.signal", "退出码 {code}（信号 {signal}）"),
    ("event.how.signal#11", "退出码 139（信号 11，段错误）"),
    (
        "event.how.signal#15",
        "退出码 143（信号 15，被要求停止：任务被停止或另一个副本失败时，Berth 会这样停止副本）",
    ),
    (
        "event.how.signal#6",
        "退出码 134（信号 6，进程中止，最常见于断言失败）",
    ),
    (
        "event.how.signal#9",
        "退出码 137（信号 9，进程被强制终止：最常见的原因是内存不足）",
    ),
    (
        "event.how.signal#9_berth",
        "退出码 137（信号 9，被 Berth 强制终止：副本被要求停止后未在宽限期内结束）",
    ),
    ("event.how.unknown", "结束原因未知"),
    (
        "event.idle_node",
        "{cluster} 的 {spec} 闲时资源（闲时稳定性等级：{stability}）中的第 {node} 个节点",
    ),
    (
        "event.kube.cleanup.deleted",
        "Job {job}：{state}，已删除；{place}可能仍保留",
    ),
    (
        "event.kube.cleanup.failed",
        "Job {job}：失败：{why}；{place}仍保留",
    ),
    (
        "event.kube.cleanup.gone",
        "Job {job}：结束前已被删除；{place}可能仍保留",
    ),
    (
        "event.kube.cleanup.gone_since",
        "Job {job}：{state}，且已不存在；{place}可能仍保留",
    ),
    (
        "event.kube.cleanup.not_created",
        "Job {job}：无法创建（{error}）；{place}仍保留",
    ),
    (
        "event.kube.cleanup.place",
        "命名空间 {namespace} 中 PVC {claim} 的目录 {dir}",
    ),
    ("event.kube.cleanup.removed", "Job {job}：已删除{place}"),
    (
        "event.kube.cleanup.still_runs",
        "RayJob {task}：任务结束后仍在运行，其{place}未清理",
    ),
    (
        "event.kube.cleanup.unadmitted",
        "{secs} 秒后仍未被 Kueue 准入（仍处于挂起状态）",
    ),
    (
        "event.kube.cleanup.undeletable",
        "Job {job}：{state}，且无法删除（{error}）；{place}可能仍保留",
    ),
    (
        "event.kube.cleanup.under_way",
        "Job {job} 正在删除{place}；结束时将在此告知",
    ),
    ("event.kube.cleanup.unended", "{secs} 秒后仍未结束"),
    (
        "event.kube.cleanup.unknown",
        "RayJob {task}：无法确定是否仍在运行（{error}），其{place}未清理",
    ),
    ("event.kube.cluster", "{object}：{what}"),
    (
        "event.kube.evicted",
        "作业被 Kueue 驱逐，已挂起（重新等待准入）",
    ),
    (
        "event.kube.evicted#detail",
        "作业被 Kueue 驱逐，已挂起（重新等待准入）：{detail}",
    ),
    ("event.kube.job_deleted", "Job {job} 在 Berth 之外被删除"),
    (
        "event.kube.pull_breaker",
        "Pod {pod} 的容器 {container} 镜像拉取失败 {count} 次，超过允许的 {retries} 次重试：{what}",
    ),
    (
        "event.kube.pull_failure",
        "Pod {pod} 的容器 {container}：第 {count} 次镜像拉取失败：{what}",
    ),
    ("event.kube.suspended", "作业已挂起（等待准入）"),
    (
        "event.kube.suspended#detail",
        "作业已挂起（等待准入）：{detail}",
    ),
    ("event.note", "第 {attempt} 次运行：{note}"),
    ("event.queued", "{reason}"),
    ("event.replica_ended", "副本 {replica} 已结束，{how}"),
    (
        "event.replica_ended#role",
        "副本 {replica}（{role}）已结束，{how}",
    ),
    ("event.replica_role.head", "Head"),
    ("event.replica_role.master", "主节点"),
    ("event.replica_role.submitter", "Submitter"),
    ("event.replica_role.submitter#alone", "启动命令"),
    ("event.replica_role.worker", "工作节点 {i}"),
    ("event.replica_role.worker#ray", "Worker {i}"),
    (
        "event.retrying",
        "第 {attempt} 次运行失败（{reason}），开始第 {attempt} 次重试，最多 {max_retries} 次",
    ),
    (
        "event.retrying#backoff",
        "第 {attempt} 次运行失败（{reason}），最早 {secs} 秒后开始第 {attempt} 次重试，最多 {max_retries} 次",
    ),
    (
        "event.retrying#backoff_reruns",
        "第 {attempt} 次运行失败（{reason}），最早 {secs} 秒后开始第 {retry} 次重试，最多 {max_retries} 次（服务器停止后的重新运行不计入重试）",
    ),
    (
        "event.retrying#reruns",
        "第 {attempt} 次运行失败（{reason}），开始第 {retry} 次重试，最多 {max_retries} 次（服务器停止后的重新运行不计入重试）",
    ),
    (
        "event.retrying.waits",
        "重试前等待中：下次运行最早于 {at} 开始",
    ),
    (
        "event.runtime_env.unapplied",
        "本服务器（本地后端）不启动 Ray 集群：Runtime Env 中的 {keys} 不会生效，只有 env_vars 会传给任务进程",
    ),
    ("event.server_stopped", "任务运行期间服务器已停止"),
    (
        "event.server_stopped#ended",
        "第 {attempt} 次运行：服务器停止期间所有副本均已结束，各副本的结束状态以其自身记录为准",
    ),
    (
        "event.server_stopped#ended_rest",
        "第 {attempt} 次运行：服务器停止期间其余仍在运行的副本均已结束，各副本的结束状态以其自身记录为准",
    ),
    (
        "event.server_stopped#no_tolerance",
        "任务运行期间服务器已停止；未启用自动容错，不再重新运行",
    ),
    (
        "event.server_stopped#requeued",
        "任务启动期间服务器已停止；任务重新排队（不占用重试次数）",
    ),
    (
        "event.server_stopped#rerun",
        "任务运行期间服务器已停止；已启用自动容错，重新运行（不占用重试次数）",
    ),
    (
        "event.server_stopped#reruns_used",
        "任务运行或启动期间再次因服务器停止（或切换主服务器）而中断，此前已有 {reruns} 次运行如此中断：不再重新运行，以防正是该任务导致服务器停止（例如耗尽内存）",
    ),
    (
        "event.server_stopped#retries_used",
        "任务运行期间服务器已停止，且重试次数已用完",
    ),
    (
        "event.server_stopped#taken_back",
        "第 {attempt} 次运行：重启后的服务器接管了其作业，作业在服务器停止期间继续运行",
    ),
    ("event.started", "第 {attempt} 次运行：所有副本已启动"),
    ("event.stopped", "由用户停止"),
    ("event.stopped#before_rerun", "等待重新运行时由用户停止"),
    ("event.stopped#before_start", "启动前由用户停止"),
    ("event.stopping", "用户请求停止，正在结束其副本"),
    ("event.succeeded", "所有副本均已正常结束"),
    ("field.advanced.alerts.channel.help", "邮件或 Webhook。"),
    ("field.advanced.alerts.channel.label", "通知方式"),
    ("field.advanced.alerts.event.help", "触发告警的事件。"),
    ("field.advanced.alerts.event.label", "告警事件"),
    (
        "field.advanced.alerts.help",
        "在任务创建时同步配置告警：每个订阅发送邮件，或向 https:// URL 发送 POST 请求。",
    ),
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
    ("field.advanced.alerts.threshold.label", "阈值 N"),
    (
        "field.advanced.fault_tolerance.enabled.help",
        "开启后，平台可在任务异常时按策略进行重试或恢复。基础容错可用于 PyTorchJob 和 RayJob。自动重试不能解决代码、数据路径、显存不足等需要修改配置或脚本的问题。",
    ),
    (
        "field.advanced.fault_tolerance.enabled.label",
        "启用自动容错",
    ),
    ("field.advanced.fault_tolerance.label", "自动容错"),
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
        "开启后接入任务自定义监控指标。训练代码需要自行暴露对应端口和路径，任务进入运行中后才会产生可采集数据。",
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
        "训练代码暴露指标的端口，1–65535；不能使用任务自身占用的端口（PyTorchJob 的 23456，Ray 的 6379、8265、10001、8080 和 52365，开启 Pod 间免密登录时的 22）。",
    ),
    ("field.advanced.monitoring.port.label", "指标端口"),
    (
        "field.advanced.ssh.help",
        "开启后自动启用多 Pod 之间的免密码 SSH 登录，并生成节点信息，分别保存在 /root/hostfile 和 /root/hostfile.hostname 文件中（Kubernetes 上的 RayJob 的 Pod 名称由系统生成，只启用免密登录，不生成节点信息文件）。该功能在常见操作系统（如 Ubuntu）以及常见镜像（如 NGC 镜像）中均可使用，但在某些特殊环境下可能不可用，如遇问题请联系技术支持。",
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
        "任务名称前缀。平台会在名称前缀后追加唯一后缀生成最终任务名。名称只能使用小写字母、数字和中划线，并以字母开头、以字母或数字结尾。",
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
        "为任务打标签，便于归类、筛选和审计。最多 20 个，键不能重复。管理员开启标签验证后，提交任务时需要选择已维护的标签。",
    ),
    (
        "field.basic.tags.key.help",
        "1–63 个字母、数字、“-”、“_”或“.”，以字母或数字开头和结尾；前面可加小写域名前缀和“/”（如 example.com/team）。",
    ),
    ("field.basic.tags.key.label", "标签键"),
    ("field.basic.tags.label", "标签"),
    (
        "field.basic.tags.value.help",
        "最多 63 个字母、数字、“-”、“_”或“.”，以字母或数字开头和结尾；可以为空。",
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
        "仅预留实例：开启后，预留资源不足时任务也可以在闲时资源上启动；闲时资源不占用配额，但可能被中断。",
    ),
    ("field.compute.accept_idle.label", "接受闲时资源"),
    (
        "field.compute.guarantee.help",
        "按资源类型选择是否启用更稳定的保障策略。关键训练、长时间训练或恢复成本较高的任务，建议优先使用支持资源保障的配置。闲时资源不支持资源保障。注意：Berth 会随任务保存此选择，但目前的调度尚未据此提供更强的保障。",
    ),
    ("field.compute.guarantee.label", "资源保障"),
    (
        "field.compute.head_spec.help",
        "仅 RayJob。配置 Head 节点使用的实例规格。不单独配置时，使用与 Worker 相同的规格。Head 的资源需求 = 其实例规格的单份资源 × 单节点实例规格数。",
    ),
    ("field.compute.head_spec.label", "Head 实例规格"),
    (
        "field.compute.idle_stability.help",
        "闲时资源预计可持续的时长。使用闲时资源时必填；预留实例接受闲时资源时可不选，表示不限等级。",
    ),
    ("field.compute.idle_stability.label", "闲时稳定性等级"),
    (
        "field.compute.instance_type.help",
        "选择 GPU 或 CPU，再在实例列表中选择具体实例规格。每个实例规格选项展示其单份包含的 GPU、vCPU 和内存等资源。",
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
        "任务运行的资源池，预留实例必须选择共享资源池或专属资源池；其他资源类型留空时使用集群中该类型的资源池。",
    ),
    ("field.compute.pool.label", "资源池"),
    (
        "field.compute.prefer_idle.help",
        "预留实例接受闲时资源时，优先使用闲时资源。",
    ),
    ("field.compute.prefer_idle.label", "优先闲时"),
    (
        "field.compute.priority.help",
        "优先级会影响任务排队和调度顺序，也可能影响资源竞争中的处理结果；同优先级按提交时间先后排队。不选时为“中”。闲时资源不支持设置优先级。",
    ),
    ("field.compute.priority.label", "资源优先级"),
    (
        "field.compute.specs.help",
        "选择多个实例规格时，平台按优先级从高到低尝试调度，优先使用排在前面的实例。仅选择训练代码兼容的规格，避免任务调度到不兼容的 GPU 型号或 CPU / 内存组合。",
    ),
    ("field.compute.specs.label", "实例规格"),
    (
        "field.compute.units_per_node.help",
        "配置单个副本使用多少份所选实例规格，至少 1 份，最多为所选各规格单个节点可容纳的份数。单个副本（包括 RayJob 的 Head）的资源需求 = 实例规格的单份资源 × 单节点实例规格数。",
    ),
    ("field.compute.units_per_node.label", "单节点实例规格数"),
    (
        "field.compute.workers.help",
        "PyTorchJob 的主节点默认为 1 且不可更改，使用与工作节点相同规格的实例；RayJob 另有 1 个 Head。工作节点数 0–1024，可填 0，用于单机训练；分布式训练时，工作节点数会影响需要同时调度的副本数量。RayJob 的工作节点为同一个 Worker 组，使用同一种规格。",
    ),
    ("field.compute.workers.label", "工作节点数"),
    (
        "field.environment.command.help",
        "容器启动后执行的训练命令，平台以 bash -c 执行。PyTorchJob 可在命令中使用平台自动注入的分布式训练环境变量；RayJob 的命令通常是 Ray entrypoint，例如 python main.py。最大 64 KiB。",
    ),
    ("field.environment.command.label", "命令"),
    (
        "field.environment.datasets.help",
        "挂载数据集，供训练脚本读取输入数据。以只读方式挂载，需要填写容器内挂载路径。",
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
        "为当前任务添加临时环境变量，可用于传递路径、参数、开关或凭据。若与任务环境变量管理中的持久环境变量同名，以当前任务配置为准。",
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
    (
        "field.environment.env.value.help",
        "环境变量的取值：每个最大 32 KiB，全部取值合计最大 256 KiB。",
    ),
    ("field.environment.env.value.label", "变量值"),
    (
        "field.environment.image.help",
        "支持选择内置镜像、自定义镜像或直接填写镜像地址。镜像需要包含训练脚本运行所需框架和依赖。RayJob 需要使用包含 Ray 运行环境的镜像；如需 Ray Dashboard 完整功能，自定义镜像中也需要包含对应依赖。",
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
        "挂载模型，供微调、继续训练或评估使用，以只读方式挂载，需要填写容器内挂载路径。",
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
        "Worker 数量上限，最多 1024，配额校验和调度按此数量计算。",
    ),
    ("field.ray.autoscaling.max_workers.label", "扩容上限"),
    (
        "field.ray.autoscaling.min_workers.help",
        "Worker 数量下限，需满足 缩容下限 ≤ 工作节点数 ≤ 扩容上限。",
    ),
    ("field.ray.autoscaling.min_workers.label", "缩容下限"),
    (
        "field.ray.autoscaling.upscaling_mode.help",
        "Default（默认）、Aggressive（激进）或 Conservative（保守）。",
    ),
    ("field.ray.autoscaling.upscaling_mode.label", "扩容模式"),
    (
        "field.ray.debug.enabled.help",
        "开启后，RayJob 结束时保留 Ray 集群一段时间，便于进入 Head Pod 排查。",
    ),
    ("field.ray.debug.enabled.label", "Debug 模式"),
    (
        "field.ray.debug.keep_secs.help",
        "RayJob 结束后保留 Ray 集群的时间，1–86400 秒，默认 600 秒。",
    ),
    ("field.ray.debug.keep_secs.label", "集群保存时间"),
    ("field.ray.debug.label", "Debug 模式"),
    ("field.ray.label", "RayJob 配置"),
    (
        "field.ray.runtime_env.help",
        "填写 Ray Runtime Env，使用 Ray 支持的 YAML 格式，可用于声明运行时依赖、环境变量等；须为 YAML 映射，最大 64 KiB，不能使用别名（*name）或自定义标签，不能同时声明 pip 和 conda；不需要额外运行时配置时可以留空。",
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
    ("field.ray.shared_storage.label", "共享存储"),
    (
        "field.ray.shared_storage.volume.help",
        "需要选择支持多 Pod 读写（RWX）的 Volume。",
    ),
    ("field.ray.shared_storage.volume.label", "存储卷"),
    ("field.version.help", "任务规格的格式版本，当前支持版本 1。"),
    ("field.version.label", "任务配置版本"),
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
        "会覆盖 Pod 间免密登录在 /root 下写入的密钥（/root/.ssh）和节点信息（/root/hostfile），建议使用 /volume、/mnt 等开头的独立目录",
    ),
    ("mount.path.invalid_chars", "不能包含“:”或控制字符"),
    (
        "mount.path.nested",
        "位于 {parent} 的挂载之内，会遮盖其中的部分内容",
    ),
    ("mount.path.not_absolute", "必须是以 / 开头的绝对路径"),
    (
        "mount.path.not_normalized",
        "不能包含 . 或 .. 路径段、//，也不能以 / 结尾",
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
        "会覆盖镜像 {dir} 下的文件，建议使用 /volume、/mnt 等开头的独立目录",
    ),
    (
        "mount.path.ssh_read_only",
        "位于 Pod 间免密登录只读挂载的 {dir} 之内，Pod 将无法启动，请更换路径",
    ),
    (
        "mount.path.ssh_read_only#above",
        "为只读挂载且包含 Pod 间免密登录挂载的 {dir}，Pod 将无法启动，请更换路径",
    ),
    (
        "mount.path.stray_blank",
        "含有不可见字符（粘贴带入的零宽空格），或某一级目录名的首尾有空格（含不换行空格、全角空格）：请删除，否则卷会挂载到与作业写入路径不同的位置",
    ),
    ("mount.path.system", "不能挂载到 /proc、/sys 或 /dev"),
    (
        "mount.path.too_long",
        "路径过长：每级最多 255 字节，全长最多 4095 字节",
    ),
    (
        "never.head_too_large",
        "Head 需要 {need} {unit}，最大的节点只有 {largest_total}",
    ),
    (
        "never.head_too_large#mixed",
        "即使资源池全部空闲，也没有节点能同时满足 Head 所需的全部资源",
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
    (
        "never.replica_too_large#mixed",
        "即使资源池全部空闲，也没有节点能同时满足单个副本所需的全部资源",
    ),
    (
        "node.idle",
        "集群 {cluster} 第 {offer} 项闲时资源中的第 {node} 个节点",
    ),
    ("quantity", "{amount} {unit}"),
    ("queue.blocked", "列表中的实例规格当前均不可用"),
    (
        "queue.blocked#never",
        "按目录当前的配置，列表中没有任何实例规格能够放入其资源池；请停止任务，改选其他实例规格或资源池",
    ),
    (
        "queue.blocked#no_quota",
        "该资源池中目前没有列表中任何实例规格的配额；任务将等待配额分配，也可停止任务，改选其他资源池或实例规格",
    ),
    (
        "queue.blocked#quota",
        "列表中的所有实例规格目前都超出剩余配额；任务将等待其他任务释放足够配额或配额上调",
    ),
    ("queue.capacity_changed", "调度期间可用资源发生了变化"),
    ("queue.error", "暂时无法调度：{error}"),
    (
        "queue.head_has_no_room",
        "空闲最多的节点只有 {largest_free} {unit}，Head 需要 {need}",
    ),
    (
        "queue.head_has_no_room#mixed",
        "没有节点能同时空出 Head 所需的全部资源",
    ),
    (
        "queue.no_idle_offer",
        "所选稳定性等级及以上没有 {spec} 的闲时资源",
    ),
    (
        "queue.no_idle_offer#also",
        "{reason}；稳定性等级“{level}”及以上也没有空闲的 {spec} 闲时资源",
    ),
    (
        "queue.no_idle_offer#also_any",
        "{reason}；任何稳定性等级也都没有空闲的 {spec} 闲时资源",
    ),
    (
        "queue.no_idle_offer#also_short",
        "{reason}；当前的 {spec} 闲时资源也容纳不下它",
    ),
    (
        "queue.no_idle_offer#lower",
        "所选稳定性等级及以上没有 {spec} 的闲时资源；选择较低的稳定性等级即可立即启动：{level}",
    ),
    (
        "queue.no_node_hosts_one",
        "空闲最多的节点只有 {largest_free} {unit}，单个副本需要 {need}",
    ),
    (
        "queue.no_node_hosts_one#mixed",
        "没有节点能同时空出单个副本所需的全部资源",
    ),
    ("queue.none_free", "所有节点的空闲资源均不足 1 {unit}"),
    (
        "queue.not_enough_at_once",
        "空闲节点只能同时容纳 {replicas} 个副本中的 {placeable} 个",
    ),
    (
        "queue.outside_berth",
        "即使 Berth 的任务全部结束，{reason}；任务在等待这些节点上 Berth 之外占用的资源，这部分资源不一定会释放；请联系集群管理员，或改选其他实例规格或资源池",
    ),
    (
        "queue.outside_berth#fewer",
        "即使 Berth 的任务全部结束，{reason}；任务在等待这些节点上 Berth 之外占用的资源，这部分资源不一定会释放；减少工作节点数即可立即启动（见下方），也可改选其他实例规格或资源池，或联系集群管理员",
    ),
    (
        "queue.outside_berth#idle",
        "即使 Berth 的任务全部结束，{reason}；当前提供的闲时资源容纳不下该任务，任务将等待提供更多闲时资源，但不一定会有；减少工作节点数或单节点实例规格数、降低闲时稳定性等级，或改用其他资源类型，可能可以启动",
    ),
    (
        "queue.outside_berth#idle_lowest",
        "即使 Berth 的任务全部结束，{reason}；当前提供的闲时资源容纳不下该任务，任务将等待提供更多闲时资源，但不一定会有；减少工作节点数或单节点实例规格数，或改用其他资源类型，可能可以启动",
    ),
    (
        "queue.outside_berth#idle_unit",
        "即使 Berth 的任务全部结束，{reason}；当前提供的闲时资源容纳不下该任务，任务将等待提供更多闲时资源，但不一定会有；减少工作节点数、降低闲时稳定性等级，或改用其他资源类型，可能可以启动",
    ),
    (
        "queue.outside_berth#idle_unit_lowest",
        "即使 Berth 的任务全部结束，{reason}；当前提供的闲时资源容纳不下该任务，任务将等待提供更多闲时资源，但不一定会有；减少工作节点数，或改用其他资源类型，可能可以启动",
    ),
    (
        "queue.passed_over",
        "等待队列中前面一个多次被跳过的任务先启动",
    ),
    (
        "queue.passed_over#named",
        "等待队列中前面多次被跳过的任务 {task} 先启动",
    ),
    ("queue.spec_unresolved", "任务配置已无法与资源目录匹配"),
    (
        "ray.autoscaling.max_workers.zero",
        "扩容上限为 0 时，自动扩缩容无法增加任何 Worker；请调高扩容上限或关闭自动扩缩容",
    ),
    (
        "ray.autoscaling.range",
        "需满足 缩容下限 ≤ 工作节点数 ≤ 扩容上限，当前分别为 {min}、{workers}、{max}",
    ),
    (
        "ray.debug.keep_secs.out_of_range",
        "必须是 1 到 86400 之间的整数（秒）",
    ),
    (
        "ray.runtime_env.alias",
        "不支持 YAML 锚点和别名（&name、*name），请直接写出取值",
    ),
    (
        "ray.runtime_env.duplicate_key",
        "键“{key}”重复出现，Ray 只保留最后一个",
    ),
    (
        "ray.runtime_env.env_vars",
        "env_vars 必须是名称到字符串值的映射，yes、8 等取值请加引号",
    ),
    (
        "ray.runtime_env.invalid_yaml",
        "不是有效的 YAML（第 {line} 行第 {column} 列）：{reason}",
    ),
    (
        "ray.runtime_env.invalid_yaml.colon",
        "不加引号的值中有“: ”，请加引号或检查缩进",
    ),
    (
        "ray.runtime_env.invalid_yaml.flow",
        "在第 {open_line} 行的“{open}”之内，此处应为“,”或“{close}”",
    ),
    (
        "ray.runtime_env.invalid_yaml.indent",
        "此行与上面的行对不上：请检查缩进，且同一层级不要混用“- ”列表项和“键:”",
    ),
    ("ray.runtime_env.invalid_yaml.missing_key", "“:”前缺少键名"),
    (
        "ray.runtime_env.invalid_yaml.other",
        "YAML 语法错误（解析器原文：{detail}）",
    ),
    ("ray.runtime_env.invalid_yaml.quote", "此处的引号未闭合"),
    (
        "ray.runtime_env.invalid_yaml.tab",
        "引号或注释之外有制表符，Ray 的 YAML 读取器不接受，请改用空格",
    ),
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
    ("ray.runtime_env.unknown_key", "Ray 无法识别键“{key}”"),
    (
        "ray.runtime_env.unread",
        "未校验：YAML 读取模块未加载，请刷新页面",
    ),
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
    ("shape.expected.boolean", "布尔值 true 或 false"),
    ("shape.expected.integer", "整数（可为负数）"),
    ("shape.expected.list", "列表"),
    ("shape.expected.number", "数字"),
    ("shape.expected.object", "对象"),
    ("shape.expected.one_of", "以下之一：{options}"),
    ("shape.expected.text", "文本"),
    ("shape.expected.whole_number", "非负整数"),
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
        "未挂载 Volume：任务结束后本地盘数据将丢失，重启或迁移后也可能被清空；checkpoint 和输出结果等重要文件，建议写入挂载的 Volume",
    ),
    (
        "storage.volume.rwo_multi_pod",
        "该存储仅支持单节点挂载（RWO），任务有 {pods} 个 Pod，请选择支持多 Pod 读写（RWX）的 Volume",
    ),
    (
        "storage.volume.unknown",
        "不是该集群中的存储，请从列表中选择",
    ),
    ("ui.app.api_error", "服务器拒绝了请求：{detail}（{code}）"),
    ("ui.app.brand", "Berth"),
    (
        "ui.app.busy",
        "通往 Berth 的代理要求稍候（HTTP 429）：请在 {seconds} 秒后重试。",
    ),
    (
        "ui.app.busy#no_wait",
        "通往 Berth 的代理要求稍候（HTTP 429）：请稍后重试。",
    ),
    ("ui.app.dismiss", "关闭"),
    (
        "ui.app.gateway",
        "通往 Berth 的代理或网关代为返回了 HTTP {status}：Berth 可能正在重启，或网络繁忙。请稍后重试。",
    ),
    ("ui.app.lang_en", "English"),
    ("ui.app.lang_zh", "中文"),
    ("ui.app.language", "语言"),
    ("ui.app.load_failed", "无法加载资源目录：{detail}"),
    ("ui.app.loading", "正在加载资源目录…"),
    ("ui.app.nav", "主导航"),
    ("ui.app.nav_list", "任务管理"),
    ("ui.app.nav_new", "创建任务"),
    ("ui.app.network_error", "无法连接服务器：{detail}"),
    (
        "ui.app.not_berth",
        "该地址的应答不是来自 Berth 的接口（HTTP {status}）：请确认 Berth 的地址是否正确",
    ),
    ("ui.app.not_found", "页面 {path} 不存在。"),
    (
        "ui.app.read_no_answer",
        "服务器在 {seconds} 秒内没有应答：请检查网络连接，或稍后重试。",
    ),
    (
        "ui.app.read_no_answer#retried",
        "服务器在 {seconds} 秒内没有应答：请检查网络连接；本页每隔几秒会自动重试。",
    ),
    (
        "ui.app.refused.auth_required",
        "未登录或登录已过期，请重新登录",
    ),
    (
        "ui.app.refused.body_too_large",
        "请求内容超过服务器允许的大小",
    ),
    ("ui.app.refused.internal", "服务器内部出错，请稍后重试"),
    (
        "ui.app.refused.log_elsewhere",
        "这次运行不在本服务器上：其日志保存在运行它的服务器上",
    ),
    (
        "ui.app.refused.tags_changed",
        "本页读取之后，标签已在别处被修改，请重新查看",
    ),
    (
        "ui.app.refused.task_conflict",
        "任务已发生变化，请刷新后重新查看",
    ),
    ("ui.app.refused.task_deleted", "该任务已被删除"),
    (
        "ui.app.refused.task_forbidden",
        "只有任务的所有者可以执行此操作",
    ),
    ("ui.app.refused.task_not_found", "任务不存在，或您无权查看"),
    (
        "ui.app.refused.task_stopping",
        "任务正在停止中：请待其停止后再删除",
    ),
    ("ui.app.sign_in", "您尚未登录，或登录已过期：请登录后重试。"),
    ("ui.app.skip", "跳到正文"),
    (
        "ui.app.spec_refused",
        "服务器拒绝了任务配置：请修正其列出的问题（{code}）",
    ),
    (
        "ui.app.submit_no_answer",
        "服务器在 {seconds} 秒内没有应答。任务可能已经创建：再次提交是安全的，不会重复创建。",
    ),
    (
        "ui.app.too_large_on_the_way",
        "通往 Berth 的代理以请求过大为由拒绝了它（HTTP 413）：其上限低于 Berth 自身的上限，请联系管理员调高。",
    ),
    ("ui.app.try_again", "重试"),
    (
        "ui.app.unreachable",
        "无法连接服务器：请检查网络连接，或等待服务器恢复后重试。",
    ),
    (
        "ui.app.unreachable#retried",
        "无法连接服务器：请检查网络连接，或等待服务器恢复；本页每隔几秒会自动重试。",
    ),
    (
        "ui.app.unreachable_other_site",
        "无法连接服务器：请检查网络连接，或等待服务器恢复后重试；也可能是 Berth 的 `[cors] origins` 未列出本页面所在的站点（{origin}），浏览器因此不让本页面读取其应答",
    ),
    (
        "ui.cli.catalog_loads",
        "{catalog} 加载成功：区域 {regions} 个，集群 {clusters} 个，实例规格 {specs} 个，配额 {quotas} 条，警告 {warnings} 条。",
    ),
    (
        "ui.cli.checked_as",
        "以用户 {user} 的身份，按 {catalog} 检查。",
    ),
    ("ui.cli.demo_catalog", "演示目录"),
    ("ui.detail.actions", "操作"),
    ("ui.detail.attempt", "运行轮次"),
    ("ui.detail.attempt_n", "第 {n} 次运行"),
    ("ui.detail.attempts", "运行次数"),
    (
        "ui.detail.attempts#reruns",
        "{attempts}（其中 {reruns} 次为服务器停止后的重新运行）",
    ),
    ("ui.detail.back", "返回任务列表"),
    ("ui.detail.cancel", "取消"),
    ("ui.detail.clone", "克隆"),
    ("ui.detail.close", "关闭"),
    ("ui.detail.compare", "对比"),
    (
        "ui.detail.compare_differs",
        "与 {other} 相比有 {count} 个字段不同：",
    ),
    ("ui.detail.compare_field", "字段"),
    ("ui.detail.compare_itself", "这就是本任务。"),
    (
        "ui.detail.compare_masked",
        "任一规格中已隐藏（掩码显示）的值不参与对比。",
    ),
    ("ui.detail.compare_none", "未设置"),
    ("ui.detail.compare_same", "与 {other} 的规格完全相同。"),
    ("ui.detail.compare_this", "本任务"),
    ("ui.detail.compare_with", "与任务对比"),
    ("ui.detail.copied", "链接已复制。"),
    ("ui.detail.copy", "复制链接"),
    (
        "ui.detail.copy_failed",
        "浏览器不允许写入剪贴板，请手动复制链接。",
    ),
    ("ui.detail.created", "提交时间"),
    ("ui.detail.delete", "删除"),
    (
        "ui.detail.delete_after_end",
        "只能删除已结束的任务：请先停止。",
    ),
    (
        "ui.detail.delete_confirm",
        "确定删除任务 {name}？删除后任务将从列表中移除，无法恢复。",
    ),
    (
        "ui.detail.delete_ended",
        "任务已结束：删除后将从列表中移除，无法恢复。",
    ),
    ("ui.detail.delete_yes", "确认删除"),
    ("ui.detail.deleted", "任务 {name} 已删除。"),
    ("ui.detail.ended", "结束时间"),
    ("ui.detail.ended#not_yet", "尚未结束"),
    ("ui.detail.event.admitted", "已分配资源"),
    ("ui.detail.event.alert", "告警"),
    ("ui.detail.event.cluster", "集群"),
    ("ui.detail.event.debug", "Debug 模式"),
    ("ui.detail.event.exited", "已退出"),
    ("ui.detail.event.failed", "失败"),
    ("ui.detail.event.job", "作业"),
    ("ui.detail.event.pull", "镜像拉取"),
    ("ui.detail.event.queued", "排队中"),
    ("ui.detail.event.retrying", "重试中"),
    ("ui.detail.event.started", "已启动"),
    ("ui.detail.event.stopped", "已停止"),
    ("ui.detail.event.stopping", "停止中"),
    ("ui.detail.event.succeeded", "成功"),
    ("ui.detail.events", "事件"),
    (
        "ui.detail.events_earlier",
        "显示更早的事件（还有 {n} 条未显示）",
    ),
    ("ui.detail.events_empty", "暂无事件。"),
    (
        "ui.detail.failed_next",
        "“重提”会按完全相同的配置再次运行。如需先修改启动命令、镜像、挂载或规模，请“克隆”：表单会带着它的配置打开，改好后再提交。",
    ),
    (
        "ui.detail.failed_next#clone",
        "如需修改后再次运行（启动命令、镜像、挂载或规模），请“克隆”：表单会带着它的配置打开，改好后再提交。",
    ),
    ("ui.detail.failed_reason", "失败原因"),
    ("ui.detail.failing", "因故障结束中"),
    ("ui.detail.fault_tolerance", "自动容错"),
    (
        "ui.detail.fault_tolerance_on",
        "已开启：最多重试 {max} 次，已用 {used} 次",
    ),
    (
        "ui.detail.fault_tolerance_on#waiting",
        "已开启：最多重试 {max} 次，已用 {used} 次（最近一次正在等待运行）",
    ),
    ("ui.detail.follow", "实时跟踪"),
    (
        "ui.detail.follow_broken",
        "实时日志在本次运行结束前中断。点击“实时跟踪”可继续跟踪，点击“刷新”读取一次。",
    ),
    ("ui.detail.follow_ended", "本次运行已结束，日志不会再增加。"),
    (
        "ui.detail.follow_ended#again",
        "第 {attempt} 次运行已结束。任务将再次运行：下一次运行开始后，它的日志会接着显示在这里。",
    ),
    (
        "ui.detail.follow_ended#again_idle",
        "第 {attempt} 次运行已结束。任务将再次运行：按“实时跟踪”，下一次运行开始后即跟踪它的日志。",
    ),
    (
        "ui.detail.follow_ended#attempt",
        "第 {attempt} 次运行已结束。",
    ),
    ("ui.detail.following", "正在实时跟踪日志…"),
    (
        "ui.detail.following#attempt",
        "正在实时跟踪第 {attempt} 次运行的日志…",
    ),
    ("ui.detail.group", "项目组"),
    ("ui.detail.loading", "正在加载任务…"),
    ("ui.detail.log_filter", "仅显示包含以下内容的行"),
    (
        "ui.detail.log_filter_count",
        "{all} 行中有 {found} 行包含该内容。",
    ),
    (
        "ui.detail.log_filter_heard",
        "{all} 行中有 {found} 行包含“{text}”。",
    ),
    (
        "ui.detail.log_filter_none",
        "当前显示的日志中没有包含“{text}”的行。",
    ),
    (
        "ui.detail.log_moved_to_failed",
        "现在显示 {replica} 的日志：任务因这个副本的结束而失败。",
    ),
    ("ui.detail.log_quiet", "没有新的日志输出：{replicas}。"),
    (
        "ui.detail.log_quiet#all",
        "所有副本均已至少 {for} 没有日志输出。",
    ),
    (
        "ui.detail.log_quiet#none",
        "每个副本最近 1 分钟内都有日志输出。",
    ),
    ("ui.detail.log_quiet.more", "另外 {n} 个副本"),
    ("ui.detail.log_quiet.replica", "{replica}（已 {for}）"),
    (
        "ui.detail.log_quiet.replica#empty",
        "{replica}（启动以来一直没有，{for}）",
    ),
    (
        "ui.detail.log_snapshot",
        "以下为读取时的日志：单击“实时跟踪”查看最新输出。",
    ),
    ("ui.detail.logs", "日志"),
    ("ui.detail.logs_cut", "仅显示日志末尾（全部约 {total}）。"),
    ("ui.detail.logs_empty", "暂无输出。"),
    ("ui.detail.logs_empty_ended", "该副本在本次运行中没有输出。"),
    ("ui.detail.logs_none", "任务尚未开始运行，暂无日志。"),
    (
        "ui.detail.logs_none#ended",
        "任务在开始运行前已结束，没有日志。",
    ),
    ("ui.detail.logs_reading", "正在读取日志…"),
    ("ui.detail.logs_reload", "刷新"),
    ("ui.detail.logs_whole", "查看完整日志"),
    (
        "ui.detail.lost.delete",
        "删除请求可能未送达服务器；再次点击“删除”是安全的。",
    ),
    (
        "ui.detail.lost.resubmit",
        "可能已创建了新任务：再次点击“重提”是安全的，服务器会返回已创建的任务，不会再建第二个。",
    ),
    (
        "ui.detail.lost.share",
        "可能已生成了链接：再次点击“分享”会另生成一个，请先在“管理链接”中查看。",
    ),
    (
        "ui.detail.lost.stop",
        "停止请求可能未送达服务器：任务的阶段会显示是否正在停止；再次点击“停止”是安全的。",
    ),
    ("ui.detail.made_from#clone", "克隆自"),
    ("ui.detail.made_from#resubmit", "重提自"),
    ("ui.detail.made_into", "重提或克隆为"),
    ("ui.detail.made_into#more", "更多"),
    ("ui.detail.made_into#unread", "未能读取：请刷新页面重试"),
    ("ui.detail.monitoring", "监控看板"),
    (
        "ui.detail.monitoring_on",
        "已开启：指标端口 {port}，路径 {path}，任务运行期间采集",
    ),
    (
        "ui.detail.not_found",
        "任务 {name} 已删除，或您已无权查看。",
    ),
    ("ui.detail.off", "未开启"),
    ("ui.detail.owner", "所有者"),
    (
        "ui.detail.owner_only",
        "只有任务所有者 {owner} 可以停止、删除、重提、分享此任务或为其打标签。",
    ),
    ("ui.detail.phase", "状态"),
    ("ui.detail.phase_now", "状态已变为：{phase}。"),
    (
        "ui.detail.phase_now#failed",
        "状态已变为：{phase}：{reason}。",
    ),
    ("ui.detail.placement", "调度位置"),
    (
        "ui.detail.placement_autoscaling",
        "按扩容上限 {max} 个 Worker 调度：任务以 {workers} 个 Worker 启动，由 Ray 在 {min} 到 {max} 个之间扩缩容。",
    ),
    (
        "ui.detail.placement_autoscaling#fixed",
        "已开启自动扩缩容，但缩容下限和扩容上限均为 {max}：Ray 始终保持 {max} 个 Worker。",
    ),
    (
        "ui.detail.placement_head",
        "Head 位于 {node}：1 个副本，{units} 份实例规格 {spec}（共 {takes}）",
    ),
    (
        "ui.detail.placement_node",
        "{node}：{replicas} 个副本，每个副本 {units} 份实例规格 {spec}（共 {takes}）",
    ),
    ("ui.detail.placement_pool", "资源池 {pool}"),
    (
        "ui.detail.placement_workers",
        "Worker 位于 {node}：{replicas} 个副本，每个副本 {units} 份实例规格 {spec}（共 {takes}）",
    ),
    (
        "ui.detail.queue_ahead",
        "所在资源池的队列中排在它前面的任务有 {count} 个（先按优先级，再按提交时间）。",
    ),
    (
        "ui.detail.queue_ahead#first",
        "在所在资源池的队列中排第一（不计等待 Berth 之外占用资源的任务）。",
    ),
    ("ui.detail.reason", "等待原因"),
    ("ui.detail.reload_page", "重新加载页面"),
    ("ui.detail.replica", "副本"),
    ("ui.detail.replica#rank", "副本（RANK）"),
    ("ui.detail.replica_failed", "{label}——导致任务失败的副本"),
    (
        "ui.detail.replica_failed#attempt",
        "{label}——其结束导致本次运行失败",
    ),
    ("ui.detail.replica_head", "{n}：Head"),
    ("ui.detail.replica_master", "{n}：主节点"),
    (
        "ui.detail.replica_submitter",
        "{n}：Submitter（启动命令的输出）",
    ),
    (
        "ui.detail.replica_submitter#alone",
        "{n}：Submitter（启动命令的输出；此服务器不启动 Ray 集群）",
    ),
    ("ui.detail.replica_worker", "{n}：工作节点 {i}"),
    ("ui.detail.replica_worker#ray", "{n}：Worker {i}"),
    ("ui.detail.resilience", "监控和容错详情"),
    ("ui.detail.resources", "资源"),
    (
        "ui.detail.resources#accept_idle",
        "；接受闲时资源，闲时稳定性等级：{stability}",
    ),
    (
        "ui.detail.resources#idle",
        "{kind}，闲时稳定性等级：{stability}",
    ),
    ("ui.detail.resources#pool", "{kind}，资源池：{pool}"),
    (
        "ui.detail.resources#pool_priority",
        "{kind}，资源池：{pool}，资源优先级：{priority}",
    ),
    ("ui.detail.resources#prefer_idle", "；优先使用闲时资源"),
    (
        "ui.detail.resources#priority",
        "{kind}，资源优先级：{priority}",
    ),
    ("ui.detail.resubmit", "重提"),
    (
        "ui.detail.resubmit_refused",
        "服务器拒绝按原配置重新提交：请克隆任务，在表单中修正以下问题（{code}）",
    ),
    (
        "ui.detail.resubmit_refused#quota",
        "您在该实例规格上的剩余配额目前不足以运行该任务：请停止您的其他任务之一，或待其结束后再重提；若配额已调低到不够该任务所需，请克隆任务并减少资源需求（{code}）",
    ),
    (
        "ui.detail.resubmitted_from",
        "已由任务 {name} 重新提交：这是使用相同配置的新任务。",
    ),
    ("ui.detail.retries", "重新运行记录"),
    ("ui.detail.retries_all", "显示全部 {n} 条重新运行记录"),
    ("ui.detail.retry", "{at}：{reason}"),
    (
        "ui.detail.retry#never_ran",
        "{at}：{reason}（未运行：任务已先结束）",
    ),
    (
        "ui.detail.room_kept",
        "队列已为它保留资源：它被跳过的次数过多，在它启动前，同一资源池中排在它后面的任务不会占用它可用的节点。",
    ),
    ("ui.detail.share", "分享"),
    ("ui.detail.share_close", "关闭分享链接"),
    ("ui.detail.share_copied_n", "链接 {link} 已复制。"),
    ("ui.detail.share_copy_label", "复制链接 {link}"),
    (
        "ui.detail.share_help",
        "任何已登录用户可通过此链接只读查看任务；隐藏的变量值以掩码展示。每次点击“分享”都会生成新的链接，可在“管理链接”中查看并逐个撤销。",
    ),
    ("ui.detail.share_link", "分享链接"),
    ("ui.detail.share_link_n", "链接 {link}："),
    ("ui.detail.share_links", "有效的分享链接"),
    ("ui.detail.share_links_close", "关闭链接列表"),
    (
        "ui.detail.share_links_none",
        "此任务当前没有有效的分享链接：单击“分享”可生成。",
    ),
    ("ui.detail.share_list", "管理链接"),
    ("ui.detail.share_made", "{by} 创建于 {at}"),
    ("ui.detail.share_revoke", "撤销"),
    (
        "ui.detail.share_revoke_label",
        "撤销链接 {link}（创建于 {at}）",
    ),
    (
        "ui.detail.share_revoke_question",
        "撤销链接 {link}？持有此链接的人将无法再打开此任务，撤销后不能恢复。",
    ),
    ("ui.detail.share_revoke_yes", "确认撤销"),
    (
        "ui.detail.share_revoked",
        "链接 {link}（创建于 {at}）已撤销：它不能再打开此任务。",
    ),
    (
        "ui.detail.signed_in_as_other",
        "当前登录的用户是 {now}，不是打开此页面的 {then}：页面上的操作属于 {then}。请重新加载，以 {now} 的权限查看此任务。",
    ),
    ("ui.detail.spec", "任务配置"),
    (
        "ui.detail.spec_masked",
        "隐藏的变量值以掩码展示：此任务不属于您。",
    ),
    ("ui.detail.spec_own", "您的任务：隐藏的变量值仅对您可见。"),
    ("ui.detail.spec_place", "实例规格 {name}"),
    ("ui.detail.specs", "实例规格（按优先级）"),
    ("ui.detail.specs#head", "；Head：{spec}"),
    ("ui.detail.stability_any", "任意等级"),
    ("ui.detail.status", "状态详情"),
    ("ui.detail.stop", "停止"),
    (
        "ui.detail.stop_asked",
        "已请求停止：副本全部退出后任务即结束。",
    ),
    (
        "ui.detail.stop_confirm",
        "确定停止任务 {name}？其副本将立即结束，尚未保存的内容会丢失。",
    ),
    (
        "ui.detail.stop_confirm#retrying",
        "确定停止任务 {name}？任务正在等待重试：下一次运行将不再启动，并归还其占用的配额（如有）。",
    ),
    (
        "ui.detail.stop_confirm#waiting",
        "确定停止任务 {name}？任务尚未启动：将移出队列，并归还其占用的配额（如有）。",
    ),
    (
        "ui.detail.stop_meanwhile",
        "确认停止期间，任务已结束或已在别处被停止：无需再停止。",
    ),
    ("ui.detail.stop_yes", "确认停止"),
    ("ui.detail.tag_add", "添加标签"),
    ("ui.detail.tag_refused", "#{number} 未通过："),
    ("ui.detail.tag_remove", "移除标签 {tag}"),
    ("ui.detail.tags", "标签"),
    (
        "ui.detail.tags_elsewhere",
        "标签已在别处被修改，任务当前的标签为 {tags}。保存将以您的标签替换它们。",
    ),
    (
        "ui.detail.tags_elsewhere#none",
        "标签已在别处被全部删除，任务当前没有标签。保存将恢复您的标签。",
    ),
    (
        "ui.detail.tags_leave",
        "本页的标签修改尚未保存。确定不保存就离开此页面吗？",
    ),
    ("ui.detail.tags_none", "无标签。"),
    (
        "ui.detail.tags_nothing",
        "没有要保存的更改：这些就是任务的标签。",
    ),
    (
        "ui.detail.tags_owner_only",
        "只有任务所有者 {owner} 可以修改其标签。",
    ),
    ("ui.detail.tags_save", "保存标签"),
    ("ui.detail.tags_saved", "标签已保存。"),
    ("ui.detail.tags_take_theirs", "改用任务当前的标签"),
    (
        "ui.detail.tags_unsaved",
        "尚未保存：单击“保存标签”后才会应用到任务。",
    ),
    (
        "ui.detail.tags_unsaved#blocked",
        "尚未保存：请先修正上方所述的问题，再单击“保存标签”应用到任务。",
    ),
    ("ui.detail.timeline", "生命周期时间线"),
    ("ui.detail.title", "任务 {name}"),
    ("ui.detail.title#phase", "任务 {name}：{phase}"),
    ("ui.detail.to_log", "查看日志"),
    ("ui.detail.took", "历时 {duration}"),
    ("ui.detail.type", "任务类型"),
    (
        "ui.detail.waiting_answer",
        "正在等待服务器应答，应答后按钮将恢复可用。",
    ),
    (
        "ui.detail.waits_run",
        "第 {run} 次运行（重试）等待中：{reason}",
    ),
    ("ui.duration.dh", "{d} 天 {h} 小时"),
    ("ui.duration.hm", "{h} 小时 {m} 分"),
    ("ui.duration.ms", "{m} 分 {s} 秒"),
    ("ui.duration.s", "{s} 秒"),
    ("ui.form.add.advanced.alerts", "新增告警订阅"),
    ("ui.form.add.basic.tags", "添加标签"),
    ("ui.form.add.compute.specs", "添加实例规格"),
    ("ui.form.add.environment.datasets", "添加数据集"),
    ("ui.form.add.environment.env", "添加环境变量"),
    ("ui.form.add.environment.models", "添加模型"),
    ("ui.form.add.environment.storage", "添加存储"),
    (
        "ui.form.alerts.no_email",
        "本服务器未配置邮件中继，不会发送邮件：告警只会记入任务事件。请改用 Webhook，或请管理员配置邮件中继。",
    ),
    ("ui.form.choose", "请选择…"),
    ("ui.form.clone_afresh", "从原任务的配置重新开始"),
    (
        "ui.form.clone_afresh_confirm",
        "放弃对此副本的修改，从原任务的配置重新开始？修改将无法恢复。",
    ),
    ("ui.form.clone_afresh_yes", "放弃修改"),
    ("ui.form.clone_failed.blank", "改为打开新建表单"),
    ("ui.form.clone_loading", "正在加载要复制的任务…"),
    ("ui.form.clone_restored", "已恢复您对此克隆未提交的修改。"),
    (
        "ui.form.clone_restored#sent",
        "已恢复您对此克隆的修改。它们已提交过但未收到应答：再次提交时，如任务已创建，将返回该任务，不会重复创建。",
    ),
    ("ui.form.copy_of", "复制自任务 {id}：提交后才会创建新任务。"),
    ("ui.form.count.errors", "{count} 个错误"),
    ("ui.form.count.hints", "{count} 个提示"),
    ("ui.form.count.todo", "{count} 项待完成"),
    ("ui.form.count.warnings", "{count} 个警告"),
    (
        "ui.form.debug_no_cluster",
        "本服务器（本地后端）不启动 Ray 集群，直接运行 RayJob 的启动命令（entrypoint）：Debug 模式在这里不保留集群。",
    ),
    ("ui.form.draft_restored", "已恢复未提交的草稿。"),
    (
        "ui.form.draft_restored#other_tab",
        "已恢复另一个标签页最后保存的草稿。若该标签页仍打开，在两处都提交会创建两个任务。",
    ),
    (
        "ui.form.draft_restored#sent",
        "已恢复草稿。它已提交过但未收到应答：再次提交时，如任务已创建，将返回该任务，不会重复创建。",
    ),
    (
        "ui.form.draft_restored.masked",
        "{said}草稿不保存您输入的隐藏值和 Webhook 地址：请重新填写下方标出的项。",
    ),
    (
        "ui.form.env.hidden_lines",
        "该隐藏值共 {lines} 行，输入框无法显示换行：在框内输入会清空原值、重新开始。如需修改，请先取消勾选“隐藏”。",
    ),
    (
        "ui.form.export.held",
        "{fields}中的内容不是数字：导出文件中为其上一个有效数值，请先修正再导出。",
    ),
    (
        "ui.form.export.hidden",
        "隐藏的环境变量值和 Webhook 地址按表单中的内容导出：表单中为明文的（在此输入的，或克隆自己的任务带来的）导出为明文；为掩码 ****** 的，导入后需重新填写。",
    ),
    ("ui.form.export.json", "导出 JSON"),
    ("ui.form.export.yaml", "导出 YAML"),
    ("ui.form.fix_errors", "请先修正错误再提交"),
    ("ui.form.head_spec.same", "与 Worker 相同的规格"),
    ("ui.form.image_fix", "改为 “{image}”（去掉粘贴带入的空白）"),
    (
        "ui.form.image_pull_retries.default",
        "留空则使用平台默认值 {default}。",
    ),
    ("ui.form.import.at_line", "在第 {line} 行"),
    ("ui.form.import.button", "导入"),
    ("ui.form.import.choose", "选择文件…"),
    (
        "ui.form.import.confirm",
        "用导入的任务规格替换整个表单？已填写的内容将无法恢复。",
    ),
    (
        "ui.form.import.documents",
        "未导入：找到 {count} 个 YAML 文档；一个任务规格只能是一个文档。",
    ),
    (
        "ui.form.import.done",
        "已导入：上方表单已替换为导入的任务规格。",
    ),
    ("ui.form.import.file", "或导入文件"),
    (
        "ui.form.import.file_not_utf8",
        "未导入：文件不是 UTF-8 文本，请另存为 UTF-8 后重新选择。",
    ),
    (
        "ui.form.import.file_too_large",
        "未导入：文件大于 4 MiB，任务规格远小于此，请选择任务规格本身的文件。",
    ),
    (
        "ui.form.import.file_unreadable",
        "未导入：浏览器无法读取该文件。",
    ),
    ("ui.form.import.hinted", "{finding}。{hint}"),
    ("ui.form.import.json.colon", "键之后应为“:”"),
    ("ui.form.import.json.comma_brace", "此处应为“,”或“}”"),
    ("ui.form.import.json.comma_bracket", "此处应为“,”或“]”"),
    (
        "ui.form.import.json.control",
        "字符串中含有控制字符（如换行符、制表符），请转义，如写成 \\n 或 \\t",
    ),
    ("ui.form.import.json.eof", "文本提前结束，JSON 不完整"),
    ("ui.form.import.json.eof_string", "字符串缺少结尾的双引号"),
    ("ui.form.import.json.escape", "反斜杠转义无效"),
    ("ui.form.import.json.key", "键必须是双引号括起的文本"),
    ("ui.form.import.json.number", "数字无效"),
    (
        "ui.form.import.json.trailing",
        "JSON 对象之后还有多余的文本",
    ),
    (
        "ui.form.import.json.trailing_comma",
        "JSON 不允许在右括号前多加逗号",
    ),
    (
        "ui.form.import.json.value",
        "此处应为一个值：双引号括起的文本、数字、true、false、null、列表或对象",
    ),
    ("ui.form.import.label", "粘贴 YAML 或 JSON 格式的任务规格"),
    (
        "ui.form.import.manifest",
        "未导入：这是 Kubernetes 对象（含 `apiVersion` 和 `kind`），不是 Berth 的任务规格。Berth 会根据任务规格生成 PyTorchJob 或 RayJob：请填写表单，或导入由导出功能生成的任务规格（“导出 YAML”可查看其格式）。",
    ),
    (
        "ui.form.import.not_plain",
        "未导入：仅支持普通 YAML（键必须是文本，不能使用别名）。",
    ),
    (
        "ui.form.import.runtime_env_block",
        "请把它写成文本：在 `runtime_env: |` 下缩进书写各行，与导出的写法相同。",
    ),
    (
        "ui.form.import.shape",
        "未导入：{count} 个字段未知或格式不正确。",
    ),
    ("ui.form.import.syntax", "未导入：{detail}"),
    (
        "ui.form.import.syntax_at",
        "未导入：第 {line} 行第 {column} 列无法解析（解析器原文：{detail}）。",
    ),
    (
        "ui.form.import.syntax_at#known",
        "未导入：第 {line} 行第 {column} 列无法解析：{reason}。",
    ),
    ("ui.form.import.title", "导入任务规格"),
    (
        "ui.form.import.unread",
        "未导入：YAML 读取模块未能加载，请刷新页面，或粘贴 JSON 格式的任务规格",
    ),
    (
        "ui.form.import.yaml.colon",
        "YAML 在此处不接受 \": \"：请按其所属键下各行的缩进对齐该行，或为含有 \": \" 的文本加上引号",
    ),
    (
        "ui.form.import.yaml.comment",
        "作为注释开头的 \"#\" 前面需要一个空格",
    ),
    (
        "ui.form.import.yaml.indent",
        "该行的缩进与前后行不一致：同一个键下的字段应使用相同的空格缩进",
    ),
    ("ui.form.import.yaml.quote", "引号括起的文本缺少结尾的引号"),
    (
        "ui.form.import.yaml.space_after",
        "\":\" 或 \"-\" 之后应为空格，不能是制表符或其他字符",
    ),
    (
        "ui.form.import.yaml.tab",
        "YAML 用空格缩进，不能用制表符：请将行首的制表符换成空格",
    ),
    ("ui.form.import.yes", "替换表单"),
    (
        "ui.form.kind_note.idle",
        "闲时资源：不绑定已购买配额，非保障资源，可能被高优先级任务抢占；适合训练程序具备 checkpoint 或重提能力的任务。",
    ),
    (
        "ui.form.kind_note.on_demand",
        "按量实例：使用按量配额，不占用预留配额，保障受资源优先级和资源保障配置影响；适合常规训练和阶段性实验，资源不足时分布式任务会整体排队。",
    ),
    (
        "ui.form.kind_note.reserved",
        "预留实例：使用已购买或已分配的预留配额，通常有资源保障；适合关键训练、长时间训练和恢复成本高的任务。",
    ),
    (
        "ui.form.kind_note.spot",
        "Spot：不需要配额，非保障资源，可能被中断；适合成本敏感、可中断、可重试、有 checkpoint 的非关键任务。",
    ),
    (
        "ui.form.launch_example",
        "每个副本都会原样运行此命令。要让各副本共同完成一次分布式训练，请用 torchrun 和平台注入的环境变量启动，例如：",
    ),
    ("ui.form.launch_example_use", "按此方式启动我的命令"),
    (
        "ui.form.left_out",
        "此处不提供以下内容，已从任务中去掉：{items}。立即改回 {before} 即可保留。",
    ),
    (
        "ui.form.left_out#none",
        "此处不提供以下内容，已从任务中去掉：{items}。",
    ),
    ("ui.form.left_out.head", "Head 实例规格 {name}"),
    ("ui.form.left_out.pool", "资源池 {name}"),
    ("ui.form.left_out.spec", "实例规格 {name}"),
    (
        "ui.form.made_before",
        "页面刷新时，上一份草稿已提交为任务 {id}：这是一个新表单。",
    ),
    (
        "ui.form.manifests.blocked",
        "请先修正表单列出的错误，再生成对象。",
    ),
    ("ui.form.manifests.failed", "服务器无法生成对象：{detail}"),
    (
        "ui.form.manifests.note",
        "服务器将提交到集群的对象：名称的随机后缀显示为 xxxxx，隐藏的变量值以掩码展示。",
    ),
    ("ui.form.manifests.render", "用服务器生成"),
    (
        "ui.form.manifests.stale",
        "生成后任务配置已修改，请重新生成以查看最新的对象。",
    ),
    ("ui.form.manifests.title", "预览：Kubernetes 对象"),
    ("ui.form.name_fix", "改为 “{prefix}”"),
    (
        "ui.form.name_fix#invisible",
        "改为 “{prefix}”（去掉不可见字符）",
    ),
    (
        "ui.form.name_pattern",
        "最终任务名：{pattern} · 前缀 {length} 个字符，最多 {max} 个",
    ),
    (
        "ui.form.name_pattern#no_type",
        "最终任务名：{pattern} · 选择任务类型后显示最大长度",
    ),
    (
        "ui.form.no_project_group",
        "您不在任何项目组中，因此无法提交任务：请联系管理员将您加入项目组。",
    ),
    ("ui.form.option.alert_channel.email", "邮件"),
    ("ui.form.option.alert_channel.webhook", "Webhook"),
    ("ui.form.option.alert_event.failed", "任务失败"),
    (
        "ui.form.option.alert_event.queued_longer_than",
        "排队超过 N 分钟",
    ),
    ("ui.form.option.alert_event.retried", "任务重试"),
    (
        "ui.form.option.alert_event.running_longer_than",
        "运行超过 N 小时",
    ),
    ("ui.form.option.alert_event.stopped", "任务停止"),
    ("ui.form.option.alert_event.succeeded", "任务成功"),
    ("ui.form.option.guarantee.false", "关闭"),
    ("ui.form.option.guarantee.true", "开启"),
    ("ui.form.option.image_source.address", "镜像地址"),
    ("ui.form.option.image_source.built_in", "内置镜像"),
    ("ui.form.option.image_source.custom", "自定义镜像"),
    ("ui.form.option.instance_type.cpu", "CPU"),
    ("ui.form.option.instance_type.gpu", "GPU"),
    ("ui.form.option.pool", "{name}（{sharing}）"),
    ("ui.form.option.priority.high", "高"),
    ("ui.form.option.priority.low", "低"),
    ("ui.form.option.priority.normal", "中"),
    ("ui.form.option.sharing.dedicated", "专属"),
    ("ui.form.option.sharing.shared", "共享"),
    ("ui.form.option.stability.high", "高"),
    ("ui.form.option.stability.low", "低"),
    ("ui.form.option.stability.medium", "中"),
    ("ui.form.option.upscaling.aggressive", "激进（Aggressive）"),
    (
        "ui.form.option.upscaling.conservative",
        "保守（Conservative）",
    ),
    ("ui.form.option.upscaling.default", "默认（Default）"),
    (
        "ui.form.persistent_env",
        "您的每个任务还会注入以下持久环境变量：{vars}。上方同名的变量以当前任务配置为准。",
    ),
    ("ui.form.persistent_env.hidden", "{name}（隐藏）"),
    ("ui.form.plan.advice.ask_quota", "还可以向管理员申请配额。"),
    (
        "ui.form.plan.advice.elsewhere",
        "请改选您有配额的资源池或规格。",
    ),
    (
        "ui.form.plan.advice.kinds#idle",
        "也可选择不占用配额、但可能被中断的闲时资源。",
    ),
    (
        "ui.form.plan.advice.kinds#spot",
        "也可选择不占用配额、但可能被中断的 Spot 实例。",
    ),
    (
        "ui.form.plan.advice.kinds#spot_idle",
        "也可选择不占用配额、但可能被中断的 Spot 实例或闲时资源。",
    ),
    (
        "ui.form.plan.advice.less#max",
        "请减少需求（更低的扩容上限），或添加配额内的规格。",
    ),
    (
        "ui.form.plan.advice.less#max_units",
        "请减少需求（更低的扩容上限或更少的单节点实例规格数），或添加配额内的规格。",
    ),
    (
        "ui.form.plan.advice.less#units",
        "请减少需求（更少的工作节点数或单节点实例规格数），或添加配额内的规格。",
    ),
    (
        "ui.form.plan.advice.less#workers",
        "请减少需求（更少的工作节点数），或添加配额内的规格。",
    ),
    ("ui.form.plan.aside", "（{text}）"),
    (
        "ui.form.plan.bar.idle",
        "所选稳定性等级及以上的闲时资源：需要 {demand} {unit}，可用 {left} {unit}",
    ),
    (
        "ui.form.plan.bar.idle#any",
        "任意稳定性等级的闲时资源：需要 {demand} {unit}，可用 {left} {unit}",
    ),
    (
        "ui.form.plan.bar.pool",
        "资源池可用量：需要 {demand} {unit}，可用 {left} {unit}",
    ),
    (
        "ui.form.plan.bar.quota",
        "{spec} 剩余配额：需要 {demand} {unit}，剩余 {left} {unit}",
    ),
    (
        "ui.form.plan.catalog_changed",
        "自本表单打开以来，服务器上的资源目录（配额、规格或资源池）已变更：请刷新页面，按新的资源目录计算；草稿会保留。",
    ),
    (
        "ui.form.plan.fewer",
        "工作节点数改为 {workers}（共 {replicas} 个副本）即可立即启动，使用 {spec}。",
    ),
    (
        "ui.form.plan.fewer#none",
        "工作节点数改为 0（仅 1 个副本）即可立即启动，使用 {spec}。",
    ),
    (
        "ui.form.plan.fewer_units",
        "单节点实例规格数改为 {units} 即可立即启动，使用 {spec}。",
    ),
    (
        "ui.form.plan.fewer_units_use",
        "将单节点实例规格数改为 {units}",
    ),
    ("ui.form.plan.fewer_use", "将工作节点数改为 {workers}"),
    ("ui.form.plan.fragment", "空闲 {units} 份的节点 {nodes} 个"),
    (
        "ui.form.plan.head_only",
        "无 Worker；Head 使用 {spec}：{amount}",
    ),
    (
        "ui.form.plan.idle",
        "{spec} 的闲时资源：闲时数量 {quantity} 份，稳定性等级 {stability}，闲时资源碎片 {fragments}",
    ),
    (
        "ui.form.plan.idle#none_free",
        "{spec} 的闲时资源：当前无空闲，稳定性等级 {stability}",
    ),
    (
        "ui.form.plan.idle_lower",
        "选择较低的稳定性等级即可立即启动：{levels}。",
    ),
    (
        "ui.form.plan.idle_none",
        "所选稳定性等级及以上没有 {spec} 的闲时资源。",
    ),
    (
        "ui.form.plan.idle_none#any",
        "任何稳定性等级都没有 {spec} 的闲时资源。",
    ),
    ("ui.form.plan.no_quota_needed", "该资源类型不占用配额。"),
    (
        "ui.form.plan.on_idle_quota",
        "在闲时资源上运行时不占用该配额，但须在配额之内才能启动。",
    ),
    (
        "ui.form.plan.outcome.blocked",
        "无法启动：没有满足配额且可调度的规格，请查看错误。",
    ),
    (
        "ui.form.plan.outcome.blocked#head_quota",
        "无法启动：Head 实例规格 {spec} 超出用户剩余配额，请查看错误。",
    ),
    (
        "ui.form.plan.outcome.blocked#never",
        "无法启动：没有任何规格能够放下该任务，请查看错误。",
    ),
    (
        "ui.form.plan.outcome.blocked#never_autoscaling",
        "无法启动：按扩容上限计，没有任何规格能够放下该任务，请查看错误。",
    ),
    (
        "ui.form.plan.outcome.blocked#no_quota",
        "无法启动：您在此资源池中没有这些规格的配额。",
    ),
    (
        "ui.form.plan.outcome.blocked#quota",
        "无法启动：所有规格都超出用户剩余配额，超出多少见错误。",
    ),
    (
        "ui.form.plan.outcome.blocked#quota_autoscaling",
        "无法启动：按扩容上限计，所有规格都超出用户剩余配额，超出多少见错误。",
    ),
    (
        "ui.form.plan.outcome.now",
        "可立即启动：使用 {spec}，占用 {nodes} 个节点。",
    ),
    (
        "ui.form.plan.outcome.now#idle",
        "可立即在闲时资源上启动：使用 {spec}，占用 {nodes} 个节点。",
    ),
    (
        "ui.form.plan.outcome.queue",
        "任务将整体排队等待 {spec}：{reason}。",
    ),
    (
        "ui.form.plan.outcome.queue#autoscaling",
        "任务将整体排队等待 {spec}（按扩容上限计，降低扩容上限可能更早启动）：{reason}。",
    ),
    (
        "ui.form.plan.outcome.queue#held",
        "任务将排队：当前能容纳它的空闲资源正为队列中前面多次被跳过的任务保留，该任务将先启动。",
    ),
    (
        "ui.form.plan.outcome.queue#no_idle",
        "任务将整体排队，直到所选稳定性等级及以上有 {spec} 的闲时资源。",
    ),
    (
        "ui.form.plan.outcome.queue#no_idle_any",
        "任务将整体排队，直到有 {spec} 的闲时资源。",
    ),
    (
        "ui.form.plan.outcome.queue#no_idle_head",
        "任务将整体排队，直到所选稳定性等级及以上有 Head 实例规格 {spec} 的闲时资源；将 Head 实例规格改为与 Worker 相同的规格，可能可以更早启动。",
    ),
    (
        "ui.form.plan.outcome.queue#no_idle_head_any",
        "任务将整体排队，直到有 Head 实例规格 {spec} 的闲时资源；将 Head 实例规格改为与 Worker 相同的规格，可能可以更早启动。",
    ),
    (
        "ui.form.plan.pending",
        "选择集群、资源类型和实例规格，并修正计算资源（以及 RayJob 自动扩缩容范围）中的错误后，即可查看任务将在何处运行。",
    ),
    (
        "ui.form.plan.pending#chosen",
        "修正计算资源（以及 RayJob 自动扩缩容范围）中的错误后，即可查看任务将在何处运行。",
    ),
    (
        "ui.form.plan.pending#fields",
        "修正以下各项后，即可查看任务将在何处运行：{fields}。",
    ),
    (
        "ui.form.plan.pending#kept",
        "修正计算资源（以及 RayJob 自动扩缩容范围）中的错误后，即可查看任务将在何处运行。下方灰色虚线框内是出错前的计划。",
    ),
    (
        "ui.form.plan.pending#kept_fields",
        "修正以下各项后，即可查看任务将在何处运行：{fields}。下方灰色虚线框内是出错前的计划。",
    ),
    ("ui.form.plan.per_replica", "单副本：{amount}"),
    (
        "ui.form.plan.pool_reference",
        "资源池可用量是参考值，会随其他任务和资源池状态变化，不能视为资源预留。",
    ),
    (
        "ui.form.plan.quota_held",
        "您在 {spec} 的配额中已有 {held} 正在使用（您运行中和排队中的任务，以及平台计入的其他用量），使用结束后释放。",
    ),
    (
        "ui.form.plan.quota_held#berth",
        "您在 {spec} 的配额中已有 {held} 正被您在 Berth 中运行和排队的任务使用，任务结束后释放。",
    ),
    (
        "ui.form.plan.quota_held#both",
        "您在 {spec} 的配额中已有 {held} 正在使用：{berth} 由您在 Berth 中运行和排队的任务使用，{outside} 为平台计入的 Berth 之外的用量。",
    ),
    (
        "ui.form.plan.quota_held#outside",
        "您在 {spec} 的配额中已有 {held} 正在使用，全部为平台计入的 Berth 之外的用量，Berth 无法结束这部分用量；如有疑问，请联系管理员。",
    ),
    ("ui.form.plan.replicas", "{replicas} 个副本 · 资源池 {pool}"),
    (
        "ui.form.plan.replicas#autoscaling",
        "{replicas} 个副本：Head 和至多 {max} 个 Worker（按扩容上限计）· 资源池 {pool}",
    ),
    (
        "ui.form.plan.replicas#head",
        "{replicas} 个副本：Head 和 {workers} 个 Worker · 资源池 {pool}",
    ),
    (
        "ui.form.plan.replicas#head_alone",
        "1 个副本：仅 Head · 资源池 {pool}",
    ),
    (
        "ui.form.plan.replicas#master",
        "{replicas} 个副本：1 个主节点和 {workers} 个工作节点 · 资源池 {pool}",
    ),
    (
        "ui.form.plan.replicas#master_alone",
        "1 个副本：仅主节点 · 资源池 {pool}",
    ),
    ("ui.form.plan.short_of", "{amount}（{spec}）"),
    (
        "ui.form.plan.stale",
        "刚才未能重新读取配额和资源池用量：以下内容可能已过时。每 30 秒会再次读取。",
    ),
    ("ui.form.plan.title", "配额和调度"),
    ("ui.form.plan.used", "（将使用）"),
    ("ui.form.plan.verdict.never", "永远无法启动：{reason}"),
    ("ui.form.plan.verdict.no_quota", "{spec} 没有配额"),
    (
        "ui.form.plan.verdict.no_quota#skipped",
        "已跳过：{spec} 没有配额",
    ),
    (
        "ui.form.plan.verdict.now",
        "可立即启动：{spec}，{nodes} 个节点",
    ),
    (
        "ui.form.plan.verdict.now#idle",
        "可立即在闲时资源上启动：{spec}，{nodes} 个节点",
    ),
    ("ui.form.plan.verdict.over_quota", "超出配额 {shortfall}"),
    (
        "ui.form.plan.verdict.over_quota#skipped",
        "已跳过：超出配额 {shortfall}",
    ),
    ("ui.form.plan.verdict.queue", "将排队：{reason}"),
    (
        "ui.form.plan.verdict.queue#skipped",
        "已跳过：当前无法调度（{reason}），将使用列表中的其他规格",
    ),
    (
        "ui.form.plan.verdict.unusable",
        "未纳入资源池 {pool} 的调度计划（原因见该规格处的校验结果）",
    ),
    (
        "ui.form.plan.with_head",
        "单个 Worker：{amount}；Head 使用 {spec}：{head}",
    ),
    ("ui.form.pool_automatic", "自动：{pool}"),
    ("ui.form.prefix_placeholder", "<前缀>"),
    ("ui.form.preview.title", "预览：将提交的任务规格（YAML）"),
    (
        "ui.form.pytorch.injected",
        "每个 Pod 都会注入 {names}（主节点端口 {port}），可在命令中使用。",
    ),
    (
        "ui.form.pytorch.injected_local",
        "每个 Pod 都会注入 {names}；本服务器（本地后端）为每个任务分配各自的主节点端口（MASTER_PORT），可在命令中使用。",
    ),
    ("ui.form.pytorch.pods", "{replicas} 个副本：主节点 {master}"),
    ("ui.form.pytorch.title", "PyTorchJob"),
    ("ui.form.pytorch.worker", "以及工作节点 {worker}。"),
    ("ui.form.pytorch.workers", "以及工作节点 {first} … {last}。"),
    ("ui.form.ready", "可以提交"),
    ("ui.form.remove_row", "删除{row}"),
    ("ui.form.row_removed", "已删除{row}。"),
    ("ui.form.row_removed#named", "已删除{row}：{what}。"),
    (
        "ui.form.runtime_env_local",
        "本服务器（本地后端）不启动 Ray 集群：Runtime Env 中只有 env_vars 会传给任务进程，working_dir、pip、conda 等不会生效。",
    ),
    (
        "ui.form.sent_differs",
        "此草稿在页面重新加载前已提交，并已按当时的内容创建了任务（隐藏值或之后的修改与现在不同）：请查看任务列表。再次提交将另建一个任务。",
    ),
    (
        "ui.form.sent_differs#here",
        "上一次提交没有收到回复，但已按当时的草稿创建了任务（之后的修改未包含在内）：请查看任务列表。再次提交将另建一个任务。",
    ),
    ("ui.form.severity.error", "错误"),
    ("ui.form.severity.info", "提示"),
    ("ui.form.severity.warning", "警告"),
    ("ui.form.specs.down", "将实例规格第 {rank} 项下移"),
    (
        "ui.form.specs.moved",
        "{spec} 现为实例规格第 {rank} 项（共 {count} 项）",
    ),
    (
        "ui.form.specs.none_offered",
        "当前集群的资源池中没有该实例类型的规格，请更换实例类型、资源类型或集群。",
    ),
    ("ui.form.specs.remove", "删除实例规格第 {rank} 项"),
    (
        "ui.form.specs.reorder_help",
        "可用箭头按钮、Alt+↑/Alt+↓ 或拖动调整顺序。",
    ),
    ("ui.form.specs.row", "实例规格：优先级第 {rank} 位"),
    (
        "ui.form.specs.row#used",
        "实例规格：优先级第 {rank} 位，任务将使用此规格",
    ),
    ("ui.form.specs.up", "将实例规格第 {rank} 项上移"),
    (
        "ui.form.specs.used_mark",
        "✓ 任务将使用的规格（无论立即启动还是排队等待）",
    ),
    ("ui.form.stability_any", "任意等级"),
    ("ui.form.start_over", "重新填写"),
    (
        "ui.form.start_over_confirm",
        "清空表单及已保存的草稿？已填写的内容将无法恢复。",
    ),
    ("ui.form.start_over_yes", "清空表单"),
    ("ui.form.submit", "新建"),
    (
        "ui.form.submit_again_safe",
        "可以放心再次提交：如果任务已创建，服务器会返回该任务，不会重复创建。",
    ),
    (
        "ui.form.submit_blocked",
        "还有 {errors}需先修正：点上方的每条校验结果即可跳到对应字段。",
    ),
    (
        "ui.form.submit_lost_cleared",
        "该提交发出后表单已被清空：它可能已按当时的草稿创建了任务，请查看任务列表。",
    ),
    (
        "ui.form.submit_waiting",
        "正在等待服务器应答（最长 30 秒）：等待是安全的，任务不会重复创建。",
    ),
    ("ui.form.submitted", "已提交，任务 {id} 已创建。"),
    (
        "ui.form.submitted#again",
        "已提交过：任务 {id} 已按此配置创建；修改配置后才会创建新任务。",
    ),
    ("ui.form.submitting", "正在提交…"),
    ("ui.form.summary", "{errors} · {warnings} · {hints}"),
    ("ui.form.summary.after_place", "："),
    ("ui.form.summary.row", "{list}第 {number} 项"),
    ("ui.form.summary.whole", "整个任务配置"),
    ("ui.form.summary_title", "校验结果"),
    ("ui.form.tags.maintained", "{finding}；已维护的标签：{tags}"),
    ("ui.form.tags.maintained_more", "等"),
    (
        "ui.form.time_zone_not_browsers",
        "不是浏览器的时区（{browser}）：此任务的时间，以及其 Pod 运行所用的时钟（TZ），都将使用 {zone}。",
    ),
    (
        "ui.form.time_zone_not_browsers#times",
        "不是浏览器的时区（{browser}）：此任务的时间将使用 {zone}。",
    ),
    (
        "ui.form.time_zone_not_offered",
        "浏览器的时区 {zone} 不在列表中，请选择任务日志与时间所用的时区。",
    ),
    ("ui.form.title", "创建训练任务"),
    ("ui.form.volume.rwo", "RWO：单节点读写"),
    ("ui.form.volume.rwx", "RWX：多节点读写"),
    (
        "ui.form.workers_out_of_range",
        "不在自动扩缩容范围 {min} 至 {max} 内（缩容下限和扩容上限，见下方 RayJob 配置）。",
    ),
    ("ui.list.any", "全部"),
    ("ui.list.arrived", "显示 {count} 个新任务"),
    ("ui.list.chip_active", "进行中"),
    ("ui.list.chip_all", "全部"),
    ("ui.list.chips", "按状态筛选"),
    ("ui.list.clear", "清除筛选"),
    ("ui.list.col.created", "提交时间"),
    ("ui.list.col.group", "项目组"),
    ("ui.list.col.name", "任务名称"),
    ("ui.list.col.owner", "所有者"),
    ("ui.list.col.phase", "状态"),
    ("ui.list.col.ran", "运行时长"),
    ("ui.list.col.tags", "标签"),
    ("ui.list.col.type", "任务类型"),
    ("ui.list.empty", "没有符合筛选条件的任务。"),
    ("ui.list.empty#none", "还没有任务。单击“新建”创建一个。"),
    (
        "ui.list.empty.owner_near",
        "你能看到其任务的用户中没有名为“{owner}”的人：所有者筛选需要完整的用户名。是否要找：",
    ),
    (
        "ui.list.empty.owner_unknown",
        "你能看到其任务的用户中没有名为“{owner}”的人：所有者筛选需要完整的用户名。",
    ),
    ("ui.list.filter.made_from", "重提或克隆自"),
    ("ui.list.filter.made_from_remove", "移除此筛选"),
    ("ui.list.filter.name", "名称包含"),
    ("ui.list.filter.owner", "所有者"),
    ("ui.list.filter.owner_help", "完整的用户名"),
    ("ui.list.filter.scope", "范围"),
    ("ui.list.filter.tag", "标签"),
    ("ui.list.filter.tag_help", "键，或 键=值"),
    ("ui.list.filter.tag_part.key", "键"),
    ("ui.list.filter.tag_part.value", "值"),
    (
        "ui.list.filter.tag_refused",
        "没有标签能匹配此筛选，列表未应用它。{part}：{reason}",
    ),
    (
        "ui.list.filter.tag_several",
        "列表一次只能按一个标签筛选（键，或 键=值），因此未应用此筛选：请只保留一个标签。",
    ),
    ("ui.list.filter.type", "任务类型"),
    ("ui.list.filters", "筛选"),
    ("ui.list.filters_toggle", "筛选"),
    (
        "ui.list.filters_toggle#on",
        "筛选（已用 {count} 项）：{which}",
    ),
    ("ui.list.filters_toggle.between", "；"),
    ("ui.list.filters_toggle.item", "{filter}：{value}"),
    ("ui.list.ignored", "地址中的以下条件未应用：{pairs}。"),
    (
        "ui.list.ignored.beside_mine",
        "与 mine=true 同时给出时不应用项目组",
    ),
    ("ui.list.ignored.item", "{pair}（{reason}）"),
    ("ui.list.ignored.mine", "mine 只能为 true 或 false"),
    ("ui.list.ignored.more", "另外 {count} 项"),
    (
        "ui.list.ignored.owner_beside_mine",
        "与 mine=true 同时给出时不应用所有者",
    ),
    (
        "ui.list.ignored.phase",
        "不是列表显示的状态，可用的状态为 {phases}",
    ),
    ("ui.list.ignored.repeated", "后面再次给出，只读取最后一个"),
    ("ui.list.ignored.type", "不是任务类型，可用的类型为 {types}"),
    ("ui.list.ignored.unknown", "不是此列表可用的筛选条件"),
    ("ui.list.left", "已不在此列表中"),
    ("ui.list.left#deleted", "已不在此列表中：已被删除"),
    ("ui.list.left#now", "已不在此列表中，当前状态：{phase}"),
    ("ui.list.loading", "正在加载任务…"),
    ("ui.list.more", "加载更多"),
    ("ui.list.new", "新建"),
    ("ui.list.scope.all", "我可见的全部任务"),
    ("ui.list.scope.group", "项目组 {group}"),
    (
        "ui.list.scope.group_other",
        "项目组 {group}（您不在该组，仅显示您可见的任务）",
    ),
    ("ui.list.scope.mine", "个人任务"),
    ("ui.list.shown", "已显示 {count} 个"),
    (
        "ui.list.stop_asked",
        "已请求停止 {name}：副本全部退出后任务即结束。",
    ),
    ("ui.list.stop_named", "停止 {name}"),
    ("ui.list.stop_over", "任务 {name}"),
    ("ui.list.stopped", "已停止 {name}。"),
    ("ui.list.table", "任务表"),
    ("ui.list.task_zone", "任务时区：{time}"),
    ("ui.list.title", "训练任务"),
    ("ui.list.updated", "更新于 {time}"),
    ("ui.phase.deleted", "已删除"),
    ("ui.phase.failed", "失败"),
    ("ui.phase.queued", "排队中"),
    ("ui.phase.retrying", "重试中"),
    ("ui.phase.running", "运行中"),
    ("ui.phase.scheduling", "调度中"),
    ("ui.phase.stopped", "已停止"),
    ("ui.phase.stopping", "停止中"),
    ("ui.phase.succeeded", "成功"),
    ("ui.shared.back", "打开控制台"),
    (
        "ui.shared.clone_help",
        "以此配置的副本打开新建表单；隐藏的值以掩码显示，需重新填写。",
    ),
    (
        "ui.shared.link_dead",
        "此分享链接无法打开任务：链接已被撤销、任务已被删除，或链接不完整。请向任务所有者索取新的链接。",
    ),
    (
        "ui.shared.link_dead#since",
        "此分享链接已无法打开任务：链接已被撤销，或任务已被删除。页面显示的是最后一次读取到的内容；请向任务所有者索取新的链接。",
    ),
    (
        "ui.shared.read_only",
        "这是分享给您的只读视图，任务结束前会随任务状态自动更新。",
    ),
    (
        "ui.shared.read_only#ended",
        "这是分享给您的只读视图，显示的是最后一次通过链接读取到的内容。",
    ),
    (
        "ui.shared.spec_masked",
        "分享的任务中，隐藏的变量值对任何人（包括所有者）都以掩码显示。",
    ),
    ("ui.shared.task_page", "打开任务页面"),
    ("ui.shared.title", "分享的任务 {name}（只读）"),
    (
        "ui.shared.title#dead",
        "分享的任务 {name}（只读）：此链接已失效",
    ),
    (
        "ui.shared.title#phase",
        "分享的任务 {name}（只读）：{phase}",
    ),
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
    ("value.invalid#once", "重复出现，请只保留一个"),
    (
        "value.invalid#too_large",
        "超出该字段的取值范围：{found}，请填写更小的数",
    ),
    ("value.required", "必填"),
];
