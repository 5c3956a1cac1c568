"""Russian (casual, lower case) written turns (see common.py)."""
# ruff: noqa: E501  (one turn a line: the lines are data)
from common import build, write

HAND = r"""
and|preference|u/up:compose|новые экраны пиши на compose плз, xml это легаси и больше его не надо
and|correction|p/cf:ksp|нет. ksp. kapt мы выпилили несколько месяцев назад, не возвращай его в gradle
and|none_question||мы viewmodel всегда кладем в feature модуль или это только в логине так?
and|none_paste||Could not find method kapt() for arguments [com.google.dagger:hilt-compiler:2.51]
ios|explicit|p/pk:fastlane match|запомни, подписываем через fastlane match, руками в xcode сертификаты не создавай
ios|correction|p/cf:async/await|хватит писать completion handler, весь проект на async/await
ios|none_thistask||только в этом PR можно оставить force unwrap, потом сам почищу
ios|none_hypothetical||если когда-нибудь выкинем ios 15, можно будет observation юзать?
wp|fact_in_passing|p/pk:timeweb|почини форму обратной связи, кстати сайт клиента на timeweb так что рута нет
wp|preference|u/up:tabs|в php у меня tabs, не переделывай на пробелы
wp|none_quote||в футер вставь: "© 2025 Пекарня Колобок, все права защищены"
wp|none_thanks||спасибо, заработало!
lar|explicit|p/pk:sail|все через sail, то есть sail artisan migrate а не php artisan, запомни
lar|correction|p/cf:pest|не, тесты на pest, не классы phpunit
lar|two_facts|p/pk:horizon&p/pk:forge|очереди крутятся в horizon, деплой через forge
lar|none_oneoff||поставь сейчас фронтовые зависимости через pnpm, npm виснет на lockfile
clim|preference|u/up:makie|для графиков мне больше нравится makie чем plots.jl
clim|reference|p/rm:confluence|описание модели лежит в confluence группы, смотри туда прежде чем угадывать единицы
clim|none_complaint||по пятницам очередь на кластере всегда ад, опять 6 часов ждать
bio|explicit|p/pk:mamba|окружения собираются mamba из environment.yml, ничего туда через pip не ставь
bio|correction|p/cf:hg38|да нет же, hg38. весь пайплайн на hg38
bio|update|p/pk:slurm|переехали на slurm, старый профиль sge мертв
go|preference|u/up:table-driven|люблю table-driven тесты, пиши так
go|correction|p/cf:errors.is|не сравнивай ошибки через ==, используй errors.Is
go|none_smalltalk||ахаха курьеры заказали 40 пицц на релиз
go|none_question||мы из repo слоя всегда указатели возвращаем или по-разному?
vue|explicit|p/pk:pinia|стор у нас pinia, vuex удалили, запомни для новых модулей
vue|reversal|p/pk:tailwind|на лендингах снова можно tailwind, клиент передумал
vue|none_thistask||для этого лендинга можно инлайн стили, он одноразовый
lua|preference|u/up:local|всегда объявляй local, терпеть не могу глобалы в модах
lua|none_question||игра перезагружает скрипты при сохранении или всегда нужен рестарт?
k8s|explicit|p/pk:make manifests|после правок api types запускай make manifests, crd генерятся
k8s|none_paste||the server could not find the requested resource (post backups.ops.acme.io)
sec|preference|u/up:cve|когда резюмируешь уязвимость, начинай с номера cve и затронутых версий
sec|none_hypothetical||допустим утек секрет jwt, можно будет подделать админские токены?
sf|explicit|p/pk:soql|никакого soql в циклах, в прошлом квартале упёрлись в governor limits на проде
sf|correction|p/cf:sfdx|теперь sf, не sfdx
cpp|correction|p/cf:std::map|никакого std::map в hot path. никогда. бери flat hash map
cpp|none_complaint||после обновления ядра латентность всегда ужасная
svk|update|p/pk:fly.io|на прошлой неделе переехали с vercel на fly.io
svk|preference|u/up:коротко|отвечай коротко, код я читаю быстрее текста
net|correction|p/cf:ilogger|хватит Console.WriteLine, инжекти ILogger<T>
net|none_assistant||ты написал "я перевел DbContext на AsNoTracking", ок а тесты прогнал?
hs|preference|u/up:cabal|для своих проектов предпочитаю cabal, не stack
ros|explicit|p/pk:--symlink-install|собираем через colcon build --symlink-install, иначе python ноды ломаются
r|correction|p/cf:renv|пакеты через renv, не делай глобальный install.packages на сервере
r|none_thanks||спасибо, shiny приложение снова грузится
tf|explicit|p/pk:terragrunt|все окружения под terragrunt, голый terraform apply в live/ не запускай
tf|none_question||почему plan всегда показывает diff по iam policy хотя ничего не менялось?
spk|correction|p/cf:dataframe|без rdd пожалуйста, только dataframe api
rb|update|p/pk:solid queue|при переходе на rails 8 сменили sidekiq на solid queue
rb|none_complaint||bundler всегда ломается после обновления ruby, каждый раз
el|correction|p/cf:electron-forge|у нас electron-forge, не electron-builder
spr|explicit|p/pk:flyway|изменения бд только миграциями flyway, запомни
spr|correction|p/cf:lombok|никакого lombok. security review банка запретил
spr|reference|p/rm:jira|тикеты в jira, проект PAY
tch|explicit|p/pk:python 3.8|на школьных ноутах еще python 3.8, так что без match
tch|none_quote||условие: "Напишите функцию, которая возвращает наибольшее из трёх чисел."
deno|none_hypothetical||а bun был бы быстрее если убрать слой совместимости с node?
"""

HAND += r"""
and|none_oneoff||возьми compose bom 2024.06 пока только для этого модуля, остальное на след неделе
and|none_complaint||android studio всегда жрет 12 гигов оперативки как только открываю проект
ios|update|p/pk:spm|наконец выпилили cocoapods, теперь все на spm, Podfile если увидишь игнорь
ios|none_question||swiftlint у нас зафиксирован на версии или brew ставит последнюю?
wp|explicit|p/pk:дочерн|запомни: родительскую тему не трогаем никогда, все в дочерней теме
wp|correction|p/cf:wp_enqueue_script|не вставляй теги script в header.php, используй wp_enqueue_script
lar|update|p/pk:php 8.3|на выходных прод перевели на php 8.3, readonly классы можно
lar|reference|p/rm:sentry|ошибки в sentry, проект laravel-api, сначала смотри туда
clim|correction|p/cf:кельвин|нет, температуры в этом файле в кельвинах, не конвертируй их как цельсий
bio|two_facts|p/pk:fastp&p/pk:star|тримминг через fastp, выравнивание через star
bio|none_thistask||для этого теста возьми только сабсет chr22, не весь геном
go|none_hypothetical||если перейти с grpc на connect, клиентов придется перегенерировать?
go|update|p/pk:otel|трейсинг теперь otel в tempo, jaeger выключили в прошлом месяце
vue|correction|p/cf:useasyncdata|не грузи данные страницы через onMounted и axios, используй useAsyncData
vue|none_question||у нас правило что компоненты всегда называются в PascalCase?
k8s|preference|u/up:kubectl|давай команды обычным kubectl, у меня тут нет k9s
sec|none_oneoff||поищи в бинаре захардкоженные ключи aws и скажи что нашел
cpp|two_facts|p/pk:catch2&p/pk:conan|тесты на catch2, зависимости из conan
svk|none_smalltalk||сегодня первый платящий клиент!!! ладно работаем дальше
net|update|p/pk:minimal api|новые эндпоинты пишем на minimal api, контроллеры только для v1
r|preference|u/up:ggplot2|графики в ggplot2 с theme_minimal, ненавижу серый фон
tf|correction|p/cf:for_each|для этих бакетов for_each а не count
tch|reversal|p/pk:input()|в задачах снова можно input(), проверялка теперь подает stdin
"""

HAND += r"""
and|fact_in_passing|p/pk:detekt|почисти ворнинги в модуле корзины, кстати в ci крутится detekt и валит билд
ios|preference|u/up:pbxproj|когда трогаешь project.pbxproj, объясняй что поменял, я этот файл ревьюить не могу
ios|none_complaint||xcode после каждого pull всегда забывает команду подписи, бесит
wp|update|p/pk:kinsta|сайт вчера переехал на kinsta, кронов из cpanel больше нет
wp|none_paste||PHP Warning:  Undefined array key "product_id" in /wp-content/plugins/kolobok-shop/cart.php on line 203
lar|explicit|p/pk:pint|перед каждым коммитом гоняй pint, пресет laravel
lar|none_hypothetical||если перейти на octane, синглтоны из service provider будут течь между запросами?
clim|update|p/pk:levante|мы теперь на levante, mistral выключили
bio|preference|u/up:snakemake|в правилах snakemake люблю именованные input и output
bio|none_quote||рецензент написал: "авторам следует обосновать выбор порога FDR"
go|two_facts|p/pk:sqlc&p/pk:goose|запросы генерим через sqlc, миграции на goose
vue|correction|p/cf:defineprops|хватит options api в новых компонентах, только script setup и defineProps
lua|explicit|p/pk:modinfo.lua|версию в modinfo.lua надо поднимать, иначе воркшоп не примет
sec|correction|p/cf:nuclei|не пиши свой сканер под это, бери шаблон nuclei
cpp|none_question||мы структуры ордеров всегда выравниваем по 64 байта или только горячие?
svk|explicit|p/pk:zod|все form actions валидируются zod схемами из src/lib/schemas
hs|correction|p/cf:text|для всего что видит юзер Text а не String, я уже говорил
ros|none_oneoff||запиши bag /scan и /odom на 30 секунд
tf|update|p/pk:opentofu|перешли на opentofu, теперь tofu plan
spk|none_thistask||только для этого бэкфилла можно collect() на драйвер, данных мало
rb|explicit|p/pk:bin/dev|запускай приложение через bin/dev, он поднимает вотчеры css и js
spr|none_assistant||ты говоришь "граница транзакции правильная", но insert аудита снаружи
tch|correction|p/cf:рекурси|никакой рекурсии в задачах для начинающих, они ее еще не проходили
tch|none_smalltalk||со следующей недели каникулы, дети уже на ушах
"""

HAND += r"""
lar|reversal|p/pk:livewire|в админке возвращаемся на livewire, эксперимент с inertia закончен
rb|reversal|p/pk:rspec|rspec возвращается, месяц на minitest никто не выдержал
wp|none_thanks||ты меня спас, клиент уже собирался звонить
tf|none_assistant||ты написал "это изменение безопасно применять", а оно хотело снести nat gateway...
k8s|none_complaint||сертификат вебхука всегда истекает ровно когда я в отпуске
net|none_question||репозитории всегда регистрируем как scoped или кэш можно singleton?
vue|none_oneoff||для этой установки возьми yarn, в старом репо на nuxt 2 еще лежит yarn.lock
spr|none_quote||от архитектурного комитета: "все новые сервисы обязаны публиковать спецификацию openapi 3.1"
"""

HAND += r"""
and|none_oneoff||для этого прогона возьми эмулятор pixel 7, телефон сел
go|none_quote||лид только что написал в slack: "никаких новых сервисов пока не распилим монолит"
svk|correction|p/cf:$state|у нас svelte 5, используй $state и $derived, а не старый синтаксис с let и $:
rb|correction|p/cf:update_all|не используй там update_all, он пропускает колбэки, а нам нужен колбэк аудита
bio|fact_in_passing|p/pk:novaseq|сорри за простыню, но новая партия с novaseq, 2x150, параметры от miseq не подходят
tch|fact_in_passing|p/pk:7 класс|сделай задачи на циклы помягче, это 7 класс
k8s|none_thistask||только на эту отладку подними log level до debug в деплойменте менеджера
el|none_complaint||подпись кода под windows всегда ломается когда продлевают сертификат
"""

HAND += r"""
lar|explicit|p/pk:laravel cloud|к сведению, прод на laravel cloud, для этого клиента forge больше не используем
svk|none_question||у эндпоинтов api всегда префикс /api/v1 или только у публичных?
wp|correction|p/cf:elementor|не добавляй больше виджеты elementor, клиент платит за чистый gutenberg
and|none_paste||> Task :app:compileDebugKotlin FAILED e: Only safe (?.) or non-null asserted (!!.) calls are allowed
bio|preference|u/up:по-русски|комментарии в скриптах пиши по-русски, остальные в лабе английский не читают
tf|fact_in_passing|p/pk:sops|глянь модуль rds, и да секреты зашифрованы sops в secrets/
go|none_thanks||огонь, собралось
clim|none_hypothetical||а если вставить новую параметризацию облаков, сколько будет идти прогон на 100 лет?
sec|none_oneoff||прогони быстрый nmap по диапазону лабы и скинь открытые порты
rb|update|p/pk:rails 7.2|мы уже на rails 7.2, ветка 7.1 только для патчей
el|none_smalltalk||в краснодаре сегодня жара, ноут греется
spk|correction|p/cf:udf|не надо python udf для этого, бери встроенные функции spark
ios|none_thistask||только для завтрашнего демо можно захардкодить тестового юзера
"""

TASKS = r"""
and|none_oneoff||почини краш при повороте экрана настроек
ios|none_oneoff||переименуй ProfileView в AccountView везде
wp|none_oneoff||сделай хедер липким на мобилке
lar|none_oneoff||добавь soft delete в модель счетов
bio|none_oneoff||добавь правило которое считает риды по образцам
go|none_oneoff||добавь таймаут в хендлер трекинга
vue|none_oneoff||сделай таблицу цен адаптивной
cpp|none_oneoff||попрофилируй feed handler и скажи где горячие места
net|none_oneoff||добавь пагинацию в эндпоинт заказов
tf|none_oneoff||заведи алерт в cloudwatch на глубину очереди
rb|none_oneoff||убери n+1 в контроллере комментариев
tch|none_oneoff||напиши еще три задачи на циклы while
"""

FACTS = r"""
and|fact_in_passing|p/pk:minsdk|minSdk у приложения 26
ios|fact_in_passing|p/pk:testflight|беты уходят в testflight по четвергам
lar|fact_in_passing|p/pk:mysql 8|прод на mysql 8, не mariadb
bio|fact_in_passing|p/pk:/scratch|большие промежуточные файлы в /scratch, на home квота
go|fact_in_passing|p/pk:go 1.22|все сервисы на go 1.22
vue|fact_in_passing|p/pk:nuxt 3|теперь все на nuxt 3
cpp|fact_in_passing|p/pk:bazel|сборка на bazel, cmake только для ide
svk|fact_in_passing|p/pk:drizzle|orm у нас drizzle
tf|fact_in_passing|p/pk:eu-north-1|все живет в eu-north-1
rb|fact_in_passing|p/pk:kamal|деплоим теперь через kamal
spr|fact_in_passing|p/pk:java 21|у нас java 21 и spring boot 3.2
tch|fact_in_passing|p/pk:thonny|ученики сидят в thonny
"""

rows = build("ru", HAND, TASKS, FACTS, [", кстати ", ", btw ", ". к сведению: ", ", и да ", ". fyi "],
             [" и потом ", ", после этого ", ". еще ", " и "], 220)
write("ru", rows)
