"""Chinese written turns (see common.py)."""
from common import build, write

HAND = r"""
and|preference|u/up:compose|新页面都用compose写吧 xml那套是老代码 别再加了
and|correction|p/cf:ksp;kapt|不对 是ksp 我们早就不用kapt了 别往gradle里加回去
and|update|p/pk:libs.versions.toml|依赖版本现在统一放libs.versions.toml了 build.gradle.kts里别再写死版本号
and|none_question||viewmodel是不是一直都放feature模块里的？还是只有登录那个
and|none_paste||e: Unresolved reference: collectAsStateWithLifecycle (Home.kt:42)
ios|explicit|p/pk:fastlane match|记一下 证书统一用fastlane match管理 不要在xcode里手动建
ios|correction|p/cf:async/await|别再写completion handler了 这个项目全是async/await
ios|none_thistask||这个PR里的强制解包先留着 我回头再清理
ios|none_hypothetical||如果以后不支持ios 15了 是不是就能用observation了
wp|fact_in_passing|p/pk:wp engine|帮我修一下联系表单的垃圾邮件问题 对了客户站点在wp engine上 没有root权限
wp|preference|u/up:tabs|php我习惯用tabs缩进 别给我改成空格
wp|none_quote||页脚加上这句：“© 2025 小林烘焙 版权所有”
wp|none_thanks||好了好了 谢谢 可以用了
lar|explicit|p/pk:sail|记住 命令都走sail 是sail artisan migrate 不是php artisan
lar|correction|p/cf:pest|测试用pest写 不要phpunit那种class
lar|none_oneoff||这次先用pnpm装前端依赖 npm的lockfile又坏了
lar|two_facts|p/pk:horizon&p/pk:forge|队列跑在horizon上 部署走forge
clim|preference|u/up:makie|画图我更喜欢makie 不要plots.jl
clim|reference|p/rm:confluence|模式说明在组里的confluence上 单位不确定先去那查
clim|none_complaint||集群排队每到周五就巨慢 又等了六个小时
bio|explicit|p/pk:mamba;environment.yml|注意 环境都是用mamba从environment.yml建的 不要随便pip装东西进去
bio|correction|p/cf:hg38|不是hg19 整个流程都是hg38
bio|update|p/pk:slurm|集群换成slurm了 以前sge的profile不能用了
bio|none_oneoff||只对qc那条rule用--cores 8重跑一下snakemake
go|preference|u/up:表驱动|写测试的话我喜欢表驱动的写法
go|fact_in_passing|p/pk:nats|给派单client加个重试 顺便说一下运单事件现在走nats不走kafka了
go|correction|p/cf:errors.is|错误别用==比较 用errors.Is 不然review过不了
go|none_smalltalk||哈哈 配送组为了上线订了四十个披萨
vue|explicit|p/pk:pinia|状态管理用pinia vuex已经删了 新模块记得用pinia
vue|reversal|p/pk:tailwind|营销页面又可以用tailwind了 客户改主意了
vue|none_thistask||这个落地页就先用内联样式吧 反正是临时的
lua|preference|u/up:local|变量一律用local声明 我最讨厌全局变量乱飘
lua|none_question||游戏是保存脚本就自动重载 还是每次都得重启？
k8s|explicit|p/pk:make manifests|改了api types之后记得跑make manifests crd是生成出来的
k8s|none_paste||reconciler error: the object has been modified; please apply your changes to the latest version
sec|preference|u/up:cve|总结漏洞的时候先写cve编号和受影响版本
sec|none_hypothetical||假设jwt密钥泄露了 攻击者能伪造管理员token吗
sf|explicit|p/pk:soql|记住循环里不能写soql 上季度生产环境撞到governor limits了
sf|none_question||异步apex的heap上限是多少来着
cpp|correction|p/cf:std::map|热路径里不要用std::map 永远不要 用flat hash map
cpp|none_complaint||每次升级内核延迟数据都难看得要死
svk|update|p/pk:fly.io|托管从vercel搬到fly.io了 adapter也换成adapter-node
svk|preference|u/up:简短|回答简短点 代码我看得比文字快
net|explicit|p/pk:directory.packages.props|我们用中央包管理 版本号写在Directory.Packages.props里
net|correction|p/cf:ilogger|别用Console.WriteLine 注入ILogger<T>
net|none_assistant||你说“已经把DbContext改成AsNoTracking了” 那测试跑了没有
hs|preference|u/up:cabal|我自己的项目更喜欢用cabal 不用stack
ros|fact_in_passing|p/pk:humble|修一下odom话题的remap 我们用的是ros2 humble不是iron
ros|none_paste||[ERROR] [nav2_controller]: Failed to make progress
r|correction|p/cf:renv|包用renv管理 别在服务器上全局install.packages
r|none_thanks||谢啦 shiny应用又能打开了
tf|explicit|p/pk:terragrunt|所有环境都套了terragrunt live目录下别直接terraform apply
tf|reference|p/rm:pagerduty|值班表在pagerduty的platform-sre里 呼人之前先看谁在值班
tf|none_question||为什么plan每次都显示iam policy有diff 明明什么都没改
spk|correction|p/cf:dataframe|不要写rdd 只用dataframe api
rb|update|p/pk:solid queue|升级rails 8的时候从sidekiq换到solid queue了 看到sidekiq相关的就删掉
rb|none_complaint||每次升级ruby bundler都会坏 每一次
el|correction|p/cf:electron-forge|我们用electron-forge 不要加electron-builder的配置
spr|explicit|p/pk:flyway|数据库变更只能通过flyway迁移脚本 记住
spr|correction|p/cf:lombok|不许用lombok 银行安全审查禁了 getter自己写
spr|none_quote||提交信息写：“PAY-2231 加强iban校验”
tch|explicit|p/pk:python 3.8|学校电脑还是python 3.8 所以别用match语句
tch|none_quote||题目：“写一个函数，返回三个数中最大的那个。”
deno|none_hypothetical||要是去掉node兼容层 bun会不会更快
and|none_question||我们是不是一直用四个空格缩进的？
cpp|none_oneoff||这次编译先加上-O0 方便我调试
"""

TASKS = r"""
and|none_oneoff||修一下设置页旋转屏幕时的崩溃
ios|none_oneoff||把ProfileView全局改名成AccountView
wp|none_oneoff||手机端把header改成固定
lar|none_oneoff||给发票模型加软删除
clim|none_oneoff||把regrid.jl里的循环向量化
bio|none_oneoff||加一条统计每个样本reads数的rule
go|none_oneoff||给追踪接口的handler加超时
vue|none_oneoff||价格表改成响应式
k8s|none_oneoff||备份失败时加一个status condition
sf|none_oneoff||给Case对象加一个trigger handler
cpp|none_oneoff||profile一下行情处理 告诉我热点在哪
net|none_oneoff||订单接口加分页
r|none_oneoff||shiny侧边栏加个日期筛选
tf|none_oneoff||给队列长度加一个cloudwatch告警
rb|none_oneoff||修一下评论controller的n+1
tch|none_oneoff||再写三道while循环的练习
"""

FACTS = r"""
and|fact_in_passing|p/pk:minsdk|这个app的minSdk是26
ios|fact_in_passing|p/pk:testflight|测试包每周四发testflight
lar|fact_in_passing|p/pk:mysql 8|生产是mysql 8 不是mariadb
clim|fact_in_passing|p/pk:netcdf|所有输出都是netcdf4格式
bio|fact_in_passing|p/pk:/scratch|大的中间文件放/scratch home有配额
go|fact_in_passing|p/pk:go 1.22|所有服务都是go 1.22
vue|fact_in_passing|p/pk:nuxt 3|现在全是nuxt 3了
k8s|fact_in_passing|p/pk:kind|ci里的e2e跑在kind上
cpp|fact_in_passing|p/pk:bazel|构建用bazel cmake只是给ide用的
svk|fact_in_passing|p/pk:drizzle|orm用的是drizzle
net|fact_in_passing|p/pk:.net 8|所有服务都是.net 8
tf|fact_in_passing|p/pk:eu-central-1|资源都在eu-central-1
spk|fact_in_passing|p/pk:delta|表都是delta格式
rb|fact_in_passing|p/pk:kamal|现在用kamal部署
spr|fact_in_passing|p/pk:java 21|我们是java 21加spring boot 3.2
tch|fact_in_passing|p/pk:thonny|学生用的是thonny
"""

rows = build("zh", HAND, TASKS, FACTS, ["，对了", "，顺便说下", "。btw ", "，另外", "。fyi "],
             ["，然后", "，再", "，顺便", "。还有 "], 300)
write("zh", rows)
