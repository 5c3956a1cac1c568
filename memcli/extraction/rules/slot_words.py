"""The words of the topic slots (:mod:`.slots`): for each setting a project holds one value of
at a time, the tools that fill it and its names in the languages the extractor reads.

A tool belongs to one slot only (the first that lists it): "redis" is a database here, so
"we moved the cache to Redis" and "the database is Postgres" stay apart unless both name
the database. Tools are lower case, as written; a name matches inside a longer word only
when it is not ASCII (Chinese, Japanese and Korean glue words together).
"""

from __future__ import annotations


def _versions(runtime: str, numbers: str) -> tuple[str, ...]:
    """"node 20", "node20", "node.js 20" ...: a runtime's versions as people write them."""
    out: list[str] = []
    for number in numbers.split():
        out += [f"{runtime} {number}", f"{runtime}{number}", f"{runtime} v{number}"]
    return tuple(out)


TOOLS: dict[str, tuple[str, ...]] = {
    "package manager": ("npm", "pnpm", "yarn", "bun", "uv", "pip", "pipenv", "poetry",
                        "pdm", "conda", "mamba", "composer", "bundler", "vcpkg", "conan",
                        "cocoapods", "swift package manager", "wally", "pesde", "nuget",
                        "obs-deps"),
    "formatter": ("black", "prettier", "ruff format", "gofmt", "rustfmt", "biome",
                  "clang-format", "yapf", "dprint", "autopep8", "isort", "php-cs-fixer",
                  "swiftformat", "mix format", "deno fmt", "stylua"),
    "linter": ("eslint", "flake8", "golangci-lint", "clippy", "pylint", "oxlint", "rubocop",
               "stylelint", "ruff", "tslint", "ktlint", "swiftlint", "phpstan",
               "selene", "luacheck"),
    "type checker": ("mypy", "pyright", "pyre", "pytype", "basedpyright"),
    "database": ("postgres", "postgresql", "mysql", "sqlite", "mongodb", "mongo",
                 "cockroachdb", "mariadb", "dynamodb", "clickhouse", "supabase",
                 "sql server", "planetscale", "redis", "oracle", "オラクル", "오라클",
                 "tibero", "티베로", "firestore", "cassandra", "couchdb", "neo4j",
                 "influxdb", "timescaledb", "duckdb", "scylladb", "tidb", "達夢", "达梦",
                 "oceanbase", "firebird"),
    "search engine": ("elasticsearch", "opensearch", "meilisearch", "algolia", "typesense",
                      "solr", "manticore"),
    "orm": ("prisma", "drizzle", "typeorm", "sequelize", "sqlalchemy", "django orm", "ecto",
            "hibernate", "gorm", "diesel", "entity framework", "ef core", "mikro-orm", "knex",
            "activerecord", "active record", "sqlx", "peewee", "tortoise", "mybatis",
            "jooq", "sqlmodel", "kysely", "objection"),
    "queue": ("rabbitmq", "kafka", "sqs", "celery", "sidekiq", "bullmq", "nats", "pulsar",
              "activemq", "resque", "rq", "kinesis", "pub/sub", "rocketmq", "zeromq",
              "dramatiq", "huey", "oban", "good_job", "solid queue"),
    "cache": ("memcached", "varnish", "valkey", "dragonfly", "keydb", "hazelcast"),
    "auth provider": ("auth0", "keycloak", "okta", "cognito", "firebase auth", "clerk",
                      "supabase auth", "azure ad", "entra id", "next-auth", "nextauth",
                      "authentik", "oauth2-proxy", "devise", "better-auth",
                      "authelia", "zitadel", "ory kratos"),
    "deploy target": ("heroku", "fly.io", "vercel", "netlify", "aws ecs",
                      "cloud run", "railway", "kubernetes", "k8s", "digitalocean",
                      "azure app service", "app engine", "aws lambda", "cloudflare pages",
                      "cloudflare workers", "gigalixir", "clever cloud", "deno deploy",
                      "pantheon", "platform.sh", "elastic beanstalk", "aws amplify",
                      "hetzner", "dokku", "coolify", "kamal", "firebase hosting",
                      "github pages", "gitlab pages", "ec2", "lightsail",
                      "openshift", "cloudflare", "render.com", "scalingo", "sakura",
                      "さくら", "conoha", "xserver"),
    "hosting region": ("us-east-1", "us-east-2", "us-west-1", "us-west-2", "eu-west-1",
                       "eu-west-2", "eu-west-3", "eu-central-1", "eu-north-1",
                       "ap-northeast-1", "ap-northeast-2", "ap-southeast-1",
                       "ap-southeast-2", "ap-south-1", "sa-east-1", "ca-central-1",
                       "europe-west1", "europe-west3", "us-central1", "asia-northeast1",
                       "cn-hangzhou", "cn-shanghai", "cn-beijing", "cn-shenzhen"),
    "ci": ("github actions", "circleci", "gitlab ci", "jenkins", "buildkite", "travis",
           "azure pipelines", "bitbucket pipelines", "teamcity", "tekton",
           "gitea actions", "forgejo actions", "appveyor"),
    "code host": ("github", "gitlab", "gitea", "bitbucket", "forgejo", "gogs",
                  "azure devops", "codeberg", "gerrit", "sourcehut"),
    "test command": ("make test", "pytest", "npm test", "go test", "cargo test", "vitest",
                     "jest", "just test", "tox", "nox", "rails test", "gradlew test",
                     "mix test", "yarn test", "pnpm test", "make check", "bun test",
                     "ctest", "forge test", "rebar3 ct", "busted"),
    "test framework": ("mocha", "junit", "testng", "rspec", "minitest", "unittest",
                       "phpunit", "xunit", "nunit", "catch2",
                       "googletest", "gtest", "kotest", "spock"),
    "e2e framework": ("cypress", "playwright", "selenium", "puppeteer", "webdriverio",
                      "testcafe", "detox", "appium"),
    "bundler": ("webpack", "vite", "rollup", "esbuild", "parcel", "turbopack", "rspack",
                "tsup", "snowpack", "rolldown", "browserify"),
    "build system": ("cmake", "qmake", "bazel", "meson", "gradle", "maven", "scons",
                     "autotools", "buck2", "premake", "xmake", "sbt"),
    "monorepo tool": ("nx", "turborepo", "lerna", "moonrepo"),
    "css framework": ("tailwind", "tailwindcss", "bootstrap", "bulma", "chakra ui",
                      "material ui", "mui", "styled-components", "css modules",
                      "unocss", "vanilla-extract", "pico.css", "daisyui",
                      "shadcn", "ant design", "antd", "element plus", "vuetify", "quasar"),
    "frontend framework": ("react", "vue", "angular", "svelte", "solidjs", "preact",
                           "jquery", "alpine.js", "htmx",
                           "liveview"),
    "web framework": ("django", "flask", "fastapi", "nestjs", "next.js",
                      "nextjs", "nuxt", "rails", "laravel", "spring boot",
                      "sveltekit", "hono", "koa", "symfony",
                      "actix", "axum", "litestar", "starlette", "sinatra",
                      "cakephp", "codeigniter", "aiohttp", "quarkus", "micronaut"),
    "state management": ("redux", "zustand", "mobx", "pinia", "vuex", "recoil", "jotai",
                         "xstate", "ngrx", "valtio", "redux toolkit", "tanstack query",
                         "react query", "swr"),
    "http client": ("axios", "httpx", "ky", "superagent", "okhttp",
                    "retrofit", "alamofire", "urllib3", "reqwest"),
    "web3 library": ("ethers", "viem", "web3.js", "wagmi", "web3.py"),
    "date library": ("moment", "moment.js", "dayjs", "date-fns", "luxon",
                     "pendulum"),
    "logging": ("winston", "pino", "bunyan", "loguru", "structlog", "log4j", "logback",
                "slf4j", "logrus", "zerolog", "serilog", "nlog", "log4net",
                "fluentd", "fluent bit", "papertrail", "logtail"),
    "error tracker": ("sentry", "rollbar", "bugsnag", "honeybadger", "raygun", "airbrake",
                      "glitchtip", "crashlytics", "appsignal"),
    "monitoring": ("prometheus", "grafana", "datadog", "new relic", "zabbix", "nagios",
                   "uptime kuma", "uptimerobot", "opentelemetry", "jaeger", "signoz",
                   "victoriametrics", "netdata"),
    "feature flags": ("launchdarkly", "unleash", "flagsmith", "growthbook", "split.io",
                      "configcat", "flipt", "flagd", "statsig"),
    "reverse proxy": ("nginx", "caddy", "traefik", "haproxy",
                      "nginx proxy manager", "fabio", "httpd", "apisix",
                      "istio", "linkerd", "openresty"),
    "service discovery": ("consul", "nacos", "eureka", "etcd", "zookeeper"),
    "secrets": ("sops", "sops-nix", "agenix", "hashicorp vault", "doppler",
                "1password", "aws secrets manager", "sealed-secrets", "infisical",
                "bitwarden", "git-crypt"),
    "docs site": ("gitbook", "docusaurus", "mkdocs", "sphinx", "read the docs",
                  "readthedocs", "vitepress", "mintlify", "docsify", "nextra",
                  "starlight", "confluence", "jekyll"),
    "email provider": ("mailgun", "postmark", "sendgrid", "amazon ses", "aws ses", "mailjet",
                       "resend", "brevo", "sparkpost", "mailchimp", "mandrill", "mailersend"),
    "payment provider": ("stripe", "paypal", "adyen", "braintree", "mollie",
                         "lemon squeezy", "razorpay", "mercado pago", "pagseguro",
                         "이니시스", "inicis", "포트원", "portone", "토스페이먼츠",
                         "支付宝", "alipay", "微信支付", "wechat pay", "pay.jp", "komoju"),
    "chat channel": ("slack", "钉钉", "dingtalk", "飞书", "feishu", "lark", "企业微信",
                     "microsoft teams", "ms teams", "discord", "mattermost", "rocket.chat",
                     "zulip", "pagerduty", "opsgenie", "chatwork", "line works",
                     "카카오워크", "잔디"),
    "sms provider": ("twilio", "vonage", "阿里云短信", "腾讯云短信", "messagebird", "plivo"),
    "push provider": ("fcm", "firebase cloud messaging", "apns", "onesignal", "个推",
                      "极光推送", "jpush", "pusher", "expo notifications"),
    "object storage": ("s3", "gcs", "minio", "azure blob", "backblaze",
                       "wasabi", "ceph"),
    "job scheduler": ("slurm", "pbs", "pbs pro", "torque", "sge", "lsf", "htcondor",
                      "qsub", "sbatch"),
    "issue tracker": ("jira", "youtrack", "trello", "asana", "github issues", "redmine",
                      "clickup", "bugzilla"),
    "container runtime": ("docker", "podman", "containerd", "colima", "orbstack",
                          "rancher desktop"),
    "iac": ("terraform", "opentofu", "pulumi", "cloudformation", "cdk", "ansible",
            "crossplane", "bicep", "serverless framework"),
    "mobile release": ("fastlane", "xcode cloud", "bitrise", "codemagic", "app center",
                       "appcircle", "eas build", "eas submit"),
    "dependency injection": ("koin", "hilt", "dagger", "dagger hilt", "kodein", "guice",
                             "inversify", "tsyringe", "autofac", "swinject", "get_it"),
    "node version": _versions("node", "14 16 18 20 22 24") + _versions("node.js", "18 20 22"),
    "python version": _versions("python", "3.8 3.9 3.10 3.11 3.12 3.13 3.14")
    + _versions("py", "38 39 310 311 312 313"),
    "java version": _versions("java", "8 11 17 21 25") + _versions("jdk", "8 11 17 21 25"),
    "go version": _versions("go", "1.20 1.21 1.22 1.23 1.24 1.25"),
}
NAMES: dict[str, tuple[str, ...]] = {
    "package manager": ("package manager", "包管理", "gestor de paquetes",
                        "gerenciador de pacotes", "paketmanager", "gestionnaire de paquets",
                        "パッケージマネージャ", "패키지 매니저", "менеджер пакетов",
                        "gestore di pacchetti", "依存ライブラリ", "依赖管理"),
    "formatter": ("formatter", "formatting", "格式化", "formateador", "formatador",
                  "formatierer", "formateur", "フォーマッタ", "포매터", "форматтер",
                  "formattatore"),
    "linter": ("linter", "代码检查", "リンター", "린터", "линтер"),
    "type checker": ("type checker", "typechecker", "型チェック", "类型检查", "타입 체커"),
    "database": ("database", "数据库", "base de datos", "banco de dados", "datenbank",
                 "base de données", "データベース", "데이터베이스", "база данных",
                 "базу данных", "banca dati", "db는", "db가", "db 는", "db は", "db是"),
    "search engine": ("search engine", "全文検索", "搜索引擎", "검색 엔진", "поисковый движок"),
    "orm": ("orm",),
    "dependency injection": ("dependency injection", "依赖注入", "依存性注入",
                             "의존성 주입", "inyección de dependencias",
                             "injeção de dependência", "injection de dépendances",
                             "внедрение зависимостей", "iniezione delle dipendenze",
                             "dependency-injection"),
    "queue": ("message queue", "job queue", "task queue", "消息队列", "メッセージキュー",
              "キュー", "메시지 큐", "очередь сообщений", "cola de mensajes",
              "fila de mensagens", "coda di messaggi", "file de messages", "warteschlange"),
    "cache": ("cache layer", "caching", "缓存", "キャッシュ", "캐시", "кэш", "caché"),
    "auth provider": ("auth provider", "identity provider", "login provider", "sso", "认证",
                      "認証", "인증", "аутентификац", "autenticación", "autenticação",
                      "authentification", "autenticazione", "authentifizierung"),
    "deploy target": ("deploy target", "we deploy", "deployed on", "deploys to", "hosted on",
                      "部署", "desplegamos", "despliegue", "deploy é", "deployen",
                      "on déploie", "デプロイ", "배포", "деплоим", "facciamo il deploy",
                      "hosting", "hosteado", "hospedado", "hébergé", "хостинг", "托管",
                      "ホスティング", "호스팅"),
    "hosting region": ("region", "リージョン", "리전", "区域", "地域", "región", "região",
                       "регион", "regione", "région"),
    "test command": ("test command", "running the tests", "run the tests", "测试命令",
                     "跑测试", "comando de tests", "comando de testes", "testbefehl",
                     "commande de test", "テストコマンド", "테스트 명령어",
                     "команда для тестов", "comando dei test"),
    "test framework": ("test framework", "testing framework", "テストフレームワーク",
                       "测试框架", "테스트 프레임워크", "framework de tests",
                       "framework de testes", "testframework", "тестовый фреймворк"),
    "e2e framework": ("e2e framework", "e2e tests", "e2e テスト", "e2e 测试", "e2e 테스트"),
    "bundler": ("module bundler", "js bundler", "打包工具", "バンドラ", "번들러"),
    "build system": ("build system", "构建系统", "构建的", "ビルドシステム", "빌드 시스템",
                     "система сборки", "sistema de build", "sistema de compilación",
                     "buildsystem"),
    "css framework": ("css framework", "css フレームワーク", "css 框架", "css 프레임워크"),
    "logging": ("logging library", "logger", "日志库", "ロガー", "로거", "логгер"),
    "error tracker": ("error tracker", "error tracking", "error monitoring", "エラー監視",
                      "错误监控", "에러 트래킹", "трекер ошибок"),
    "feature flags": ("feature flag", "feature toggle", "フィーチャーフラグ", "功能开关",
                      "피처 플래그", "фичефлаг"),
    "reverse proxy": ("reverse proxy", "反向代理", "リバースプロキシ", "리버스 프록시",
                      "proxy inverso", "proxy reverso", "обратный прокси", "ingress",
                      "входящий трафик"),
    "service discovery": ("service discovery", "服务发现", "サービスディスカバリ",
                          "서비스 디스커버리"),
    "secrets": ("secrets manager", "secret manager", "密钥管理", "シークレット管理"),
    "docs site": ("docs site", "documentation site", "文档站", "ドキュメントサイト"),
    "email provider": ("email provider", "mail provider", "邮件服务", "メール配信",
                       "메일 발송", "proveedor de correo", "emails salen"),
    "payment provider": ("payment provider", "payment gateway", "支付渠道", "決済", "결제",
                         "pasarela de pago", "gateway de pagamento", "zahlungsanbieter",
                         "prestataire de paiement", "платёжный", "платежный"),
    "chat channel": ("alerts go to", "告警", "アラート通知", "알림 채널"),
    "sms provider": ("sms provider", "短信服务商", "短信", "sms 발송", "sms 送信"),
    "push provider": ("push provider", "离线推送", "推送通道", "プッシュ通知", "푸시"),
    "object storage": ("object storage", "对象存储", "オブジェクトストレージ",
                       "오브젝트 스토리지"),
    "job scheduler": ("job scheduler", "作业调度", "ジョブスケジューラ"),
    "issue tracker": ("issue tracker", "bug tracker", "チケット管理", "工单系统"),
    "iac": ("infrastructure as code",),
    "node version": ("node version", "node.js version", "nodeのバージョン", "node 版本"),
    "python version": ("python version", "python 版本", "python のバージョン"),
    "java version": ("java version", "jdk version", "目标 jdk", "jdk 版本"),
    "go version": ("go version",),
    "branch naming": ("branch naming", "branch names", "branch name", "branch prefix",
                      "ブランチ名", "分支命名", "分支名", "브랜치 이름", "브랜치명",
                      "nombres de rama", "nomes de branch", "branch-namen", "branchnamen",
                      "noms de branche", "имена веток", "nomi dei branch"),
}
# Words that are tools only when capitalised ("Render", not "render the page").
CAPITALISED = {"Render": "deploy target", "Drone": "ci", "Linear": "issue tracker",
               "Shortcut": "issue tracker", "Neon": "database", "Express": "web framework",
               "Got": "http client", "Square": "payment provider", "Plane": "issue tracker",
               "Backlog": "issue tracker", "Notion": "docs site", "Farm": "bundler",
               "Ant": "build system", "Arrow": "date library", "Foundation": "css framework",
               "Lit": "frontend framework", "Emotion": "css framework",
               "Rocket": "web framework", "Rush": "monorepo tool", "Karma": "test framework",
               "Nose": "test framework", "Stimulus": "frontend framework",
               "Backbone": "frontend framework", "Pest": "test framework",
               "Hypothesis": "test framework", "Fiber": "web framework", "Gin": "web framework",
               "Remix": "web framework", "Maestro": "e2e framework", "Semaphore": "ci",
               "Lima": "container runtime", "Tornado": "web framework", "Hugo": "docs site",
               "Phoenix": "web framework", "Astro": "web framework",
               "Ember": "frontend framework", "Loki": "logging", "Zap": "logging",
               "Elk": "logging", "Vault": "secrets", "Kratos": "auth provider",
               "Lucia": "auth provider", "Ava": "test framework", "Apache": "reverse proxy",
               "Envoy": "reverse proxy", "Kong": "reverse proxy", "Jasmine": "test framework",
               "Credo": "linter", "Psalm": "linter", "Paddle": "payment provider",
               "Mantis": "issue tracker", "Bamboo": "ci", "Woodpecker": "ci",
               "Hatch": "package manager", "Rye": "package manager", "Spid": "auth provider",
               "Nomad": "deploy target"}
QUALIFIERS = {
    "unit": ("unit", "单元", "unitario", "unitário", "unitaire", "ユニット", "단위", "юнит"),
    "e2e": ("e2e", "end-to-end", "end to end", "端到端"),
    "integration": ("integration", "集成", "integración", "integração", "integrations",
                    "インテグレーション", "통합", "интеграцион", "integrazione"),
}
# Words too common to tie two statements together on their own, in the languages written
# in Latin letters (a shared "est" or "sur" says nothing of the topic).
COMMON_WORDS = """
a an the and or but not no yes we you i it its it's our your my me us they this that these
those is are was were be been being do does did don't doesn't can can't could should would
will won't shall may might must have has had use used using uses again anymore any more now
from to in on at by for with without of as into onto over under about after before then than
when while where what which who how why all every each some none ever never always also too
very just only still please ok okay thanks fine allowed allow allows lifted ban banned okay
here there code file files project repo repository thing things stuff way back instead
rather via per new old one two make run runs running work works
moved switched update updated correction actually gone removed replaced since last week
month year today everything anything nothing team decided now's deploy deploys deployed
deployment test tests build builds docs doc app apps api server servers service services
frontend backend version versions branch branches main dev prod staging config setting
settings tool tools library libraries package packages dependency dependencies
el la los las un una unos unas de del y o que en con sin por para es son está están
ya ahora pero como más mas muy todo todos nuevo nueva usar usamos uso
o os as um uma do da dos das e é em no na nos nas com sem por para agora já ja mais
não nao está esta tudo todos usar usamos
der die das ein eine und oder nicht mit ohne von zu im am ist sind wir jetzt auch nur noch
mehr alles neu neue nutzen benutzen verwenden
le les un une des du et ou pas avec sans pour sur dans est sont nous on tout tous plus
maintenant aussi très tres nouveau nouvelle utiliser utilise
il lo gli i un una di da e o non con senza per su nel nella è sono ora adesso tutto
tutti anche più piu nuovo nuova usare usiamo
auf aus bei für fur über uber nach vor alle immer heute machen macht gemacht läuft laufen
haben hat wird werden kein keine dann schon gibt liegt liegen nutzt nutzen
avec pour dans toute toutes mais donc fait faire passe passé passer utilise tourne
está hace hacer hecho pasa siempre todas van
sono siamo fare fatto sempre tutte passa
são fazer feito sempre toda todas vai
worker workers job jobs task tasks data folder folders directory path
"""
