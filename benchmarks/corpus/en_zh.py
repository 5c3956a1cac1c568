# ruff: noqa: E501 -- template lines are data, one turn each
"""English and Chinese templates: ``family|memories|text``.

``memories`` is a comma-separated list of ``CODE:keyword+keyword``; CODE is PK (project
knowledge), PC (project correction/rule), UP (user preference), UC (user correction), PR
(reference); a keyword is a slot name or, after ``=``, the literal word. No memories: a
turn with nothing lasting.
"""

EN = """\
explicit|PK:deploy|remember that we deploy to {deploy}
explicit|PC:pkg|from now on use {pkg} for installs
explicit|PK:db|please keep in mind the prod database is {db}
explicit|PC:branch|note for the future: never push straight to {branch}
explicit|PK:port|for the record the dev server listens on {port}
explicit|UP:editor|save this as my preference: I work in {editor}
repo_fact|PK:db|we use {db} for everything here
repo_fact|PK:test|the test command is {test}
repo_fact|PK:ver|this service runs on {ver}
repo_fact|PK:ci|our CI is {ci}, the config lives in the usual place
repo_fact|PK:dir|everything under {dir} is generated code
repo_fact|PK:deploy|prod is hosted on {deploy}
repo_fact|PK:fmt|we format python and js with {fmt}
standing|PC:test|always run {test} before you commit
standing|PC:branch|never push directly to {branch}
standing|PC:dir|don't edit files in {dir} by hand
standing|PC:lint|make sure {lint} passes before opening a PR
standing|PC:ext|never commit {ext} files
standing|PC:lib|we don't use {lib} in this codebase
preference|UP:editor|I prefer {editor}, so give me keybindings for that
preference|UP:tz|I'm in {tz}, use that when you mention times
preference|UP:=small commits|i like small commits, one change each
preference|UP:=type hints|personally I want type hints on everything I write
agent_style|UC:=emoji|stop putting emoji in your answers
agent_style|UP:=short|keep your answers short, I read them on my phone
agent_style|UC:=apologi|don't apologize all the time, just fix things
agent_style|UC:=ask first|ask first before you delete anything
correction|PC:pkg+pkg2|no, it's {pkg}, not {pkg2}
correction|PC:test|actually the test command is {test}
correction|PC:db|wrong, the database is {db}, not {db2}
correction|PC:fmt|no no, we use {fmt} for formatting, not {fmt2}
correction|PC:deploy|that's not right, staging runs on {deploy}
update|PK:deploy|heads up, we moved everything from {deploy2} to {deploy}, {deploy2} is gone
update|PK:db|we switched the database to {db} last week
update|PK:pkg|fyi we migrated from {pkg2} to {pkg}
update|PK:test|the test command changed, it's {test} now
update|PK:ci|we dropped {ci2}, CI runs on {ci} now
reversal|PK:lib|you can use {lib} again, the ban is lifted
reversal|PK:branch|it's fine to push to {branch} again
reversal|PK:dir|we allow edits in {dir} again
in_passing|PK:deploy|fix the failing test in {file}, btw we deploy to {deploy} so mind the env vars
in_passing|PK:db|add caching to {func} - fyi our database is {db}
in_passing|PK:test|can you refactor {func}? the tests run with {test} in this repo
in_passing|PK:ver|update the docker image, we're on {ver} everywhere
in_passing|PK:pkg|add {lib} to the project (we use {pkg}, not anything else)
two_facts|PK:pkg,PK:db|we use {pkg} and the database is {db}
two_facts|PK:test,PC:dir|tests run with {test}. also never touch {dir}
two_facts|PK:deploy,PK:ci|we deploy on {deploy} and CI is {ci}
reference|PR:url|the runbook is at {url}
reference|PR:tracker|bugs are tracked in {tracker}
reference|PR:url|api docs live at {url}, check there first
reference|PR:url|dashboards for this service: {url}
correction|PC:pkg|no wait, {pkg} is what this repo uses now
correction|PC:db|scratch that, the db is {db}
correction|PC:ci|nope, CI moved off {ci2} ages ago, it's {ci}
correction|PC:pkg|not {pkg2} - {pkg}. always
correction|PC:port|the port isn't 1234, it's {port}
update|PK:pkg|switched the package manager over to {pkg}, {pkg2} is history
update|PK:deploy|we're off {deploy2} now, everything ships to {deploy}
update|PK:fmt|replaced {fmt2} with {fmt} across the repo yesterday
update|PK:ver|bumped everything to {ver}, the old runtime is gone
update|PK:db|{db2} got retired, data lives in {db} now
reversal|PK:lib|ok, {lib} is allowed again
reversal|PK:lib|{lib} is fine to use again, forget what I said before
reversal|PK:branch|scrap the rule about {branch}, direct pushes are ok now
reversal|PK:dir|you may edit {dir} by hand again, the generator is gone
preference|UP:=tabs|i'm a tabs person, always have been
preference|UP:=dark mode|i use dark mode everywhere so pick colours that work there
in_passing|PK:ci|the build is red again - heads up CI is {ci} now, check its logs
in_passing|PK:port|start the server and hit /health (it listens on {port} here)
question||how do I install {pkg} on this machine?
question||why is {test} failing on my branch?
question||should we use {db} or {db2} for the new service?
question||does {deploy} support websockets?
question||what does {func} return when the cache is empty?
question||can you explain what {lint} is complaining about?
one_off||run {test}
one_off||rename {func} to {func2} everywhere
one_off||fix the bug in {file}
one_off||add a unit test for {func}
one_off||deploy this branch to {deploy} now
one_off||bump {lib} to the latest version and rerun {test}
paste||here's the error:\\nTraceback (most recent call last):\\n  File "{file}", line 42, in {func}\\nKeyError: 'id'
paste||{pkg} ERR! code ERESOLVE\\n{pkg} ERR! unable to resolve dependency tree
paste||```\\ndef {func}(x):\\n    return x\\n```\\nwhy does this break?
paste||[2026-03-02 10:11:02] ERROR {func} failed: connection refused on port {port}
thanks||thanks, that works
thanks||great, looks good to me
thanks||perfect, merge it
thanks||nice one, thank you!
assistant||you said earlier you'd use {pkg}, fine, go ahead
assistant||your last answer recommended {db}, let me think about it
hypothetical||if we ever move to {db}, the migrations would break
hypothetical||what if we tried {deploy} instead?
hypothetical||maybe someday we'll switch to {pkg}
quote||add this line to the README: "always use {pkg}"
quote||the error says "never call {func} twice", what does that mean?
quote||my colleague thinks we should use {fmt}, not sure yet
this_task||for this PR only, skip {lint}
this_task||just this once, deploy to {deploy} by hand
this_task||for now use {pkg2} on this branch, we'll clean it up later
"""

ZH = """\
explicit|PK:deploy|记住，我们部署在 {deploy} 上
explicit|PC:pkg|以后都用 {pkg} 安装依赖
explicit|PK:db|记一下：生产库是 {db}
explicit|PC:branch|以后不要直接推到 {branch} 分支
repo_fact|PK:db|我们项目的数据库是 {db}
repo_fact|PK:test|测试命令是 {test}
repo_fact|PK:ver|这个服务跑在 {ver} 上
repo_fact|PK:ci|CI 用的是 {ci}
repo_fact|PK:dir|{dir} 下面都是生成的代码
repo_fact|PK:port|本地开发服务器端口是 {port}
standing|PC:test|提交之前一定要先跑 {test}
standing|PC:dir|不要手动改 {dir} 里的文件
standing|PC:ext|永远不要提交 {ext} 文件
standing|PC:lint|开 PR 之前 {lint} 必须通过
preference|UP:editor|我平时用 {editor}，快捷键按这个来
preference|UP:tz|我在 {tz} 时区，说时间的时候按这个
preference|UP:=中文|以后用中文回答我
agent_style|UC:=表情|回答里不要加表情
agent_style|UP:=简短|回答简短一点，别啰嗦
correction|PC:pkg+pkg2|不对，是 {pkg}，不是 {pkg2}
correction|PC:test|其实测试命令是 {test}
correction|PC:db|错了，数据库是 {db} 不是 {db2}
update|PK:deploy|说一下，我们已经从 {deploy2} 迁到 {deploy} 了，{deploy2} 不用了
update|PK:db|数据库上周换成了 {db}
update|PK:pkg|我们现在改用 {pkg} 了，不再用 {pkg2}
reversal|PK:lib|{lib} 又可以用了，之前的限制取消了
reversal|PK:branch|现在可以直接推 {branch} 了
in_passing|PK:deploy|帮我修一下 {file} 里的测试，顺便说一句我们部署在 {deploy}
in_passing|PK:db|给 {func} 加个缓存，对了我们的数据库是 {db}
in_passing|PK:test|重构一下 {func}，这个仓库跑测试用 {test}
two_facts|PK:pkg,PK:db|我们用 {pkg}，数据库是 {db}
two_facts|PK:test,PC:dir|测试用 {test} 跑。另外不要碰 {dir}
reference|PR:url|运维手册在 {url}
reference|PR:tracker|bug 都记在 {tracker} 里
reference|PR:url|接口文档在 {url}，先看那里
update|PK:pkg|包管理器换成 {pkg} 了，{pkg2} 已经弃用
reversal|PK:lib|{lib} 可以继续用了，之前说的作废
correction|PC:db|说错了，数据库其实是 {db}
question||怎么在这台机器上装 {pkg}？
question||为什么 {test} 在我的分支上挂了？
question||新服务用 {db} 还是 {db2} 好？
question||{func} 在缓存为空的时候返回什么
one_off||跑一下 {test}
one_off||把 {func} 改名成 {func2}
one_off||修一下 {file} 里的 bug
one_off||给 {func} 加个单元测试
one_off||现在把这个分支部署到 {deploy}
paste||报错如下：\\nTraceback (most recent call last):\\n  File "{file}", line 42\\nKeyError: 'id'
paste||[2026-03-02 10:11:02] ERROR {func} failed: connection refused
thanks||谢谢，可以了
thanks||好的，没问题
thanks||完美，合并吧
assistant||你刚才说要用 {pkg}，行，继续吧
hypothetical||如果以后换成 {db}，迁移脚本会不会坏
hypothetical||要是试试 {deploy} 呢？
quote||在 README 里加一句："总是用 {pkg}"
quote||同事说应该用 {fmt}，我还没想好
this_task||这个 PR 先跳过 {lint}
this_task||这次手动部署到 {deploy} 就行
this_task||暂时先用 {pkg2}，以后再说
"""
