"""Chinese written turns (see common.py)."""
# ruff: noqa: E501  (one turn a line: the lines are data)
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

HAND += r"""
and|none_oneoff||这个模块先用compose bom 2024.06 其他的下周再说
and|none_complaint||android studio一打开项目就吃掉12个g内存 服了
and|two_facts|p/pk:crashlytics&p/pk:play console|崩溃日志看firebase crashlytics 发版说明写在play console里 不在仓库
and|reversal|p/pk:rxjava|老的支付模块里rxjava又可以用了 那块别改成flow
ios|update|p/pk:spm|cocoapods终于干掉了 现在全是spm 看到Podfile就忽略
ios|none_question||swiftlint我们是固定版本的吗 还是brew装最新的？
ios|none_paste||error: No profiles for 'com.acme.shop' were found
ios|reference|p/rm:figma|设计稿在figma的“商城iOS 3.0”文件里 间距以那个为准 别看我截图
wp|explicit|p/pk:子主题|记住 父主题一律不改 全部写在子主题里 不然一更新就没了
wp|correction|p/cf:wp_enqueue_script|别往header.php里直接贴script标签 用wp_enqueue_script
wp|none_oneoff||先把除了woocommerce以外的插件全停用 看看白屏还在不在
lar|update|p/pk:php 8.3|周末生产升级到php 8.3了 readonly class可以用了
lar|none_assistant||你说“已经把验证挪到FormRequest里了” 放哪个目录了？
lar|reference|p/rm:sentry|报错都在sentry的laravel-api项目里 先去那看堆栈
lar|none_smalltalk||周五快乐 公司新咖啡机终于修好了
clim|correction|p/cf:开尔文|不对 那个文件里温度是开尔文 别当摄氏度去转换
clim|none_question||降水输出我们一直是kg m-2 s-1还是mm/day？
clim|none_paste||ERROR: LoadError: DimensionMismatch: arrays could not be broadcast to a common size
bio|two_facts|p/pk:fastp&p/pk:star|这个流程里质控用fastp 比对用star bwa只用在dna那边
bio|none_complaint||conda加一个包就要解四十分钟 人生好难
bio|none_thistask||这次测试跑只用chr22的小数据集就行 不用全基因组
go|none_oneoff||在路由服务上跑一下go test ./... -race 把失败的贴给我
go|none_hypothetical||要是从grpc换成connect 客户端要重新生成吗
go|update|p/pk:otel|链路追踪现在是otel接tempo jaeger上个月关了
vue|none_question||组件文件名是规定都用大驼峰吗？
vue|correction|p/cf:useasyncdata|页面数据别用onMounted加axios 用useAsyncData 不然ssr有问题
vue|none_quote||同事说“全部用nuxt ui就完事了” 你怎么看
lua|explicit|p/pk:stylua|我所有代码都用stylua格式化 两个空格 跟着这个来
lua|none_thanks||哈哈成了 哥布林终于掉装备了
k8s|preference|u/up:kubectl|给我命令的时候用原生kubectl 我这边没有k9s
k8s|reversal|p/pk:finalizer|backup cr上又可以加finalizer了 清理的bug在0.9修了
sec|explicit|p/pk:burp|我所有流量都走burp的8080 脚本里保留代理环境变量
sec|none_quote||报告里写：“应用未校验redirect_uri参数，存在开放重定向。”
sf|update|p/pk:lwc|新组件只用lwc了 aura冻结 今年迁移完
sf|none_complaint||每次部署到uat第一次都会因为flow版本的问题失败
cpp|two_facts|p/pk:catch2&p/pk:conan|测试用catch2 依赖从conan来 别加vcpkg的东西
cpp|none_oneoff||这次编译打开-fsanitize=address 我看看到底怎么回事
svk|correction|p/cf:+page.server.ts|不对 这个要放+page.server.ts 不是+page.ts 数据库客户端不能在浏览器跑
svk|none_smalltalk||今天来了第一个付费用户！！！好了继续干活
net|update|p/pk:minimal api|新接口都用minimal api写 controller只留给老的v1路由
net|none_paste||System.InvalidOperationException: Unable to resolve service for type 'IOrderRepository'
ros|update|p/pk:jazzy|机器人升级到ros2 jazzy了 humble只在旧测试台上
ros|none_thistask||这次回放bag的时候launch里可以把use_sim_time设成true
r|explicit|p/pk:targets|分析流程是targets 跑tar_make() 别一个个脚本跑
r|preference|u/up:ggplot2|图用ggplot2加theme_minimal 我讨厌灰色背景
tf|correction|p/cf:for_each|那些bucket用for_each别用count 删一个count会全部重排
tf|none_oneoff||帮我把现有的route53 zone导入state 就那一个
spk|explicit|p/pk:databricks|作业都跑在databricks上 别自己建sparksession指定master
spk|none_question||join之前维表是不是都要cache 还是broadcast就够了？
rb|correction|p/cf:standardrb|我们用standardrb 别加自定义rubocop规则
deno|explicit|p/pk:deno.json|任务都定义在deno.json里 用deno task dev 不是npm脚本
el|update|p/pk:electron 30|上周升到electron 30了 main里可以用node 20的api
spr|preference|u/up:中文|业务的人也看日志 日志信息用中文 代码和注释用英文
tch|reversal|p/pk:input()|练习里又可以用input()了 自动评分现在会喂stdin
tch|none_question||练习题是不是都要写docstring？对初一学生会不会太多
"""

HAND += r"""
and|fact_in_passing|p/pk:detekt|帮我清一下购物车模块的警告 顺便说下ci里跑detekt 有新问题就会挂
and|none_thistask||这个分支先跳过截图测试 我本地老是不稳定
ios|preference|u/up:pbxproj|改project.pbxproj的时候跟我说一下改了什么 那个文件我没法review
ios|none_complaint||每次pull完xcode都会忘记签名团队 烦死了
wp|update|p/pk:kinsta|网站昨天迁到kinsta了 原来cpanel的cron没了 用他们的cron面板
wp|none_paste||PHP Fatal error: Uncaught Error: Call to undefined function get_field()
lar|explicit|p/pk:pint|记住每次提交前跑pint 用laravel预设
lar|none_hypothetical||如果换成octane service provider里的单例会不会在请求之间串
clim|explicit|p/pk:集合成员0|备注：集合成员0永远是控制试验 别跟扰动的一起平均
clim|update|p/pk:levante|现在用levante了 mistral已经下线 路径都是/project/bm1234开头
bio|preference|u/up:snakemake|snakemake规则里我喜欢给input和output起名字 不要用位置参数
bio|none_quote||审稿人说：“作者应说明FDR阈值的选择依据”
go|two_facts|p/pk:sqlc&p/pk:goose|查询用sqlc生成 迁移用goose 这俩都别手写
go|none_paste||panic: runtime error: invalid memory address or nil pointer dereference
vue|correction|p/cf:defineprops|新组件别再用options api了 只用script setup和defineProps
vue|reference|p/rm:storybook|设计系统在storybook里 做新组件之前先去看看有没有
lua|explicit|p/pk:modinfo.lua|记得改modinfo.lua里的版本号 不然创意工坊不让上传
k8s|two_facts|p/pk:helm&p/pk:ghcr|chart用helm发到ghcr 镜像也在那
sec|correction|p/cf:nuclei|别自己写扫描器 用nuclei模板
sec|reference|p/rm:hackerone|赏金的漏洞走hackerone 项目叫acme-bbp
sf|preference|u/up:apex|apex的governor那些简单解释下就行 我是从java转过来的新手
cpp|explicit|p/pk:clang-tidy|clang-tidy用仓库里的.clang-tidy 警告当错误 保持干净
cpp|none_question||订单结构体是不是都要64字节对齐 还是只对热的那些？
svk|explicit|p/pk:zod|表单action都用src/lib/schemas里的zod校验 记住
net|reversal|p/pk:automapper|报表服务里automapper又允许用了 团队投票通过的
hs|correction|p/cf:text|面向用户的东西用Text别用String 说了好几次了
ros|preference|u/up:rclpy|我rclpy比较熟 原型先用python写 之后再移植c++
ros|none_oneoff||录30秒/scan和/odom的bag
r|explicit|p/pk:golem|shiny应用是golem包 新模块用golem::add_module加
tf|update|p/pk:opentofu|我们换成opentofu了 现在是tofu plan ci里已经没有terraform了
tf|none_complaint||周一早上跑全量plan aws总是限流
spk|none_thistask||这次回填可以collect到driver 数据很小
rb|explicit|p/pk:bin/dev|记得用bin/dev启动 它会一起起css和js的watcher
deno|correction|p/cf:deno.land/x|别从deno.land/x导入了 我们全换成jsr了
el|none_oneoff||只在我的开发版启动时打开devtools
spr|update|p/pk:kafka|支付事件现在发kafka 旧的ibm mq已经下线
spr|none_assistant||你说“事务边界是对的” 可是审计插入在事务外面啊
tch|explicit|p/pk:pytest|每道题旁边都有pytest文件 学生自己跑 名字起简单点
tch|none_smalltalk||下周放假了 孩子们已经坐不住了
tch|correction|p/cf:递归|入门题别用递归 他们还没学
"""

HAND += r"""
and|reversal|p/pk:gson|算了 数据分析sdk的封装里gson就留着吧 不迁kotlinx.serialization了
lar|reversal|p/pk:livewire|后台又回到livewire了 inertia的试验结束了
go|reversal|p/pk:gorm|报表服务里又可以用gorm了 其他地方还是sqlc
rb|reversal|p/pk:rspec|rspec回来了 试了一个月minitest大家都受不了
tf|reversal|p/pk:手动apply|sandbox账号又允许手动apply了 那边漂移检测关了
wp|none_thanks||救命恩人 客户正准备给我打电话
cpp|none_thanks||不错 p99降了3微秒
tf|none_assistant||你写的“这个改动可以安全apply” 结果它要删nat网关……
bio|none_assistant||“流程已成功完成” 并没有 一半样本是空的
k8s|none_complaint||webhook证书总是在我休假的时候过期
spk|none_complaint||大作业一开始集群就总是自动缩容
ios|none_question||ui测试是不是一直在iphone se模拟器上跑？还是只有上次发版那样
net|none_question||仓储是不是都注册成scoped？缓存那个用singleton行不行
sec|none_thistask||这次项目完整记录请求体 客户要求的 就这次
vue|none_oneoff||这次安装用yarn 老的nuxt 2仓库还有yarn.lock
tch|none_hypothetical||要是让他们用chatgpt写作业 自动评分能发现吗
spr|none_quote||架构委员会说：“所有新服务必须提供openapi 3.1规范”
"""

HAND += r"""
and|explicit|p/pk:staging flavor|先说下背景 app有三个flavor staging flavor连的是api-staging 支付绝对不要在prod flavor上测
ios|correction|p/cf:xcconfig|api key别直接写进Info.plist 要从xcconfig里读 那些文件是gitignore的 上周也说过
wp|explicit|p/pk:测试站|整个项目都是这样：所有改动先上测试站 客户确认了再上正式站
lar|preference|u/up:列表|以后总结用列表形式给我 我要贴到客户报告里
clim|preference|u/up:si单位|注释里单位都写si单位 老代码hPa和Pa混着用 我快疯了
bio|fact_in_passing|p/pk:novaseq|不好意思啰嗦一下 新一批数据是novaseq测的 2x150 miseq那套接头参数不对
go|explicit|p/pk:make proto|改了proto目录下的东西就跑make proto 生成的go代码是提交到仓库的
k8s|correction|p/cf:status|又在用Update()更新status了 用status子资源的writer 不然generation会变
sec|fact_in_passing|p/pk:staging.acme.io|下一个看登录接口 顺便说下范围只有*.staging.acme.io 生产不在范围内
svk|correction|p/cf:$state|我们是svelte 5 用$state和$derived 别用老的let和$:写法
net|explicit|p/pk:nullable|所有项目都开了nullable引用类型 警告要当真
rb|correction|p/cf:update_all|那里别用update_all 它会跳过回调 我们需要审计日志的回调
spr|explicit|p/pk:mapstruct|实体和dto之间用mapstruct映射 别手写mapper
tch|fact_in_passing|p/pk:初一|循环的题简单点 这些是初一的孩子 第一年学编程
and|none_oneoff||这次用pixel 7模拟器跑 我手机没电了
wp|none_question||就改一点css也一定要建子主题吗？
lar|none_paste||SQLSTATE[42S22]: Column not found: 1054 Unknown column 'deleted_at'
go|none_quote||组长刚在群里说：“单体拆完之前不许建新服务”
k8s|none_thistask||这次调试先把manager的日志级别调成debug
el|none_complaint||证书一续期windows签名就总是出问题
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
