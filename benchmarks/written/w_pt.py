"""Portuguese (Brazilian, casual) written turns (see common.py)."""
# ruff: noqa: E501  (one turn a line: the lines are data)
from common import build, write

HAND = r"""
and|preference|u/up:compose|prefiro que as telas novas sejam em compose, xml é legado aqui
and|correction|p/cf:ksp|nao. ksp. tiramos o kapt faz tempo, nao coloca de volta no gradle
and|none_question||a gente sempre coloca os viewmodels no modulo de feature ou foi so o login?
and|none_paste||FAILURE: Build failed with an exception. Could not resolve com.google.android.material:material:1.12.0
ios|explicit|p/pk:fastlane match|lembra que a assinatura é com fastlane match, nunca cria certificado na mao no xcode
ios|correction|p/cf:async/await|para de escrever completion handler, o projeto todo é async/await
ios|none_thistask||so nesse PR pode deixar os force unwrap, depois eu limpo
wp|fact_in_passing|p/pk:hostgator|arruma o formulario de contato pra mim, ah o site do cliente ta na hostgator entao sem ssh
wp|preference|u/up:tabs|no php eu uso tabs, nao converte meus arquivos pra espaço
wp|none_quote||coloca no rodape: "© 2025 Açaí do Zé, todos os direitos reservados"
wp|none_thanks||valeu demais, funcionou!
lar|explicit|p/pk:sail|tudo roda pelo sail, é sail artisan migrate e nao php artisan, guarda isso
lar|correction|p/cf:pest|nao, os testes sao em pest, nada de classe phpunit
lar|two_facts|p/pk:horizon&p/pk:forge|as filas rodam no horizon e o deploy é pelo forge
lar|none_oneoff||usa pnpm pra instalar as deps do front agora, o npm travou no lockfile
clim|preference|u/up:makie|pra graficos prefiro makie do que plots.jl
clim|reference|p/rm:confluence|a descricao do modelo ta no confluence do grupo, olha la antes de chutar unidade
clim|none_complaint||a fila do cluster sempre trava na sexta, de novo 6h esperando
bio|explicit|p/pk:mamba|os ambientes sao criados com mamba pelo environment.yml, nao instala nada com pip neles
bio|correction|p/cf:hg38|nao nao, hg38. o pipeline inteiro é hg38
bio|update|p/pk:slurm|agora é slurm, o profile do sge morreu
go|preference|u/up:table-driven|curto teste table-driven, escreve assim
go|correction|p/cf:errors.is|nao compara erro com ==, usa errors.Is
go|none_smalltalk||kkkk o time de entrega pediu 40 pizzas pro release
go|none_question||a gente sempre retorna ponteiro da camada de repo ou é misturado?
vue|explicit|p/pk:pinia|o store é pinia, vuex ja era. lembra disso nos modulos novos
vue|reversal|p/pk:tailwind|liberamos tailwind de novo nas landing pages, o cliente mudou de ideia
vue|none_thistask||nessa landing pode usar estilo inline, é descartavel
lua|preference|u/up:local|sempre declara local, odeio global vazando nos mods
lua|none_question||o jogo recarrega os scripts quando salva ou sempre tem que reiniciar?
k8s|explicit|p/pk:make manifests|depois de mexer nos tipos da api roda make manifests, os crds sao gerados
k8s|none_paste||failed to list *v1.Secret: secrets is forbidden: User "system:serviceaccount:ops:backup" cannot list resource
sec|preference|u/up:cve|quando resumir uma vuln começa pelo cve e as versoes afetadas
sec|none_hypothetical||e se o segredo do jwt vazasse, daria pra forjar token de admin?
sf|explicit|p/pk:soql|lembra: nada de soql dentro de loop, estouramos governor limits em prod
sf|correction|p/cf:sfdx|é sf agora, nao sfdx
cpp|correction|p/cf:std::map|sem std::map no hot path. nunca. usa o flat hash map
cpp|none_complaint||a latencia sempre fica horrivel depois de atualizar o kernel
svk|update|p/pk:fly.io|mudamos o host da vercel pro fly.io semana passada
svk|preference|u/up:curtas|respostas curtas pfv, leio codigo mais rapido que texto
net|correction|p/cf:ilogger|para de usar Console.WriteLine, injeta ILogger<T>
net|none_assistant||voce disse "atualizei o DbContext pra usar AsNoTracking", beleza mas rodou os testes?
hs|preference|u/up:cabal|prefiro cabal ao stack nos meus projetos
ros|explicit|p/pk:--symlink-install|a gente builda com colcon build --symlink-install, senao os nodes python quebram
r|correction|p/cf:renv|usa renv, nao faz install.packages global no servidor
r|none_thanks||brigado, o app shiny voltou
tf|explicit|p/pk:terragrunt|todos os ambientes usam terragrunt, nao roda terraform apply puro no live/
tf|none_question||por que o plan sempre mostra diff na policy do iam mesmo sem mudar nada?
spk|correction|p/cf:dataframe|sem rdd por favor, so api de dataframe
rb|update|p/pk:solid queue|trocamos sidekiq por solid queue no upgrade pro rails 8
rb|none_complaint||o bundler sempre quebra quando atualiza o ruby
el|correction|p/cf:electron-forge|usamos electron-forge e nao electron-builder
spr|explicit|p/pk:flyway|mudança de banco so por migration do flyway, guarda isso
spr|correction|p/cf:lombok|nada de lombok. a revisao de segurança do banco proibiu
spr|reference|p/rm:jira|os tickets ficam no jira, projeto PAY
tch|explicit|p/pk:python 3.8|os notebooks da escola ainda tao no python 3.8, entao sem match
tch|none_quote||enunciado: "Escreva uma funcao que retorna o maior de tres numeros."
deno|none_hypothetical||sera que o bun ficaria mais rapido sem a camada de compat com node?
"""

HAND += r"""
and|none_oneoff||usa o compose bom 2024.06 so nesse modulo, o resto eu vejo semana que vem
and|none_complaint||o android studio sempre come 12 giga de ram quando abro o projeto
ios|update|p/pk:spm|finalmente matamos o cocoapods, agora é tudo spm
ios|none_question||o swiftlint é fixado numa versao ou o brew puxa a ultima?
wp|explicit|p/pk:tema filho|lembra: nunca mexe no tema pai, tudo vai no tema filho
wp|correction|p/cf:wp_enqueue_script|nao cola tag script no header.php, usa wp_enqueue_script
lar|update|p/pk:php 8.3|no fds subimos prod pro php 8.3, pode usar readonly class
lar|reference|p/rm:sentry|os erros tao no sentry, projeto laravel-api, olha la primeiro
clim|correction|p/cf:kelvin|nao, as temperaturas desse arquivo tao em kelvin, nao converte como se fosse celsius
bio|two_facts|p/pk:fastp&p/pk:star|trimming é com fastp e alinhamento com star
bio|none_thistask||nesse teste usa so o subset do chr22, nao o genoma todo
go|none_hypothetical||se a gente trocasse grpc por connect, teria que regerar os clients?
go|update|p/pk:otel|tracing agora é otel mandando pro tempo, desligaram o jaeger mes passado
vue|correction|p/cf:useasyncdata|nao usa onMounted com axios pra dados da pagina, usa useAsyncData
vue|none_question||é regra os componentes sempre terem nome em PascalCase?
k8s|preference|u/up:kubectl|me passa comando de kubectl puro, nao tenho k9s aqui
sec|none_oneoff||procura chave da aws hardcoded no binario e me diz o que achou
cpp|two_facts|p/pk:catch2&p/pk:conan|os testes sao catch2 e as deps vem do conan
svk|none_smalltalk||hoje entrou o primeiro cliente pagante!!! bora trabalhar
net|update|p/pk:minimal apis|endpoint novo agora é minimal apis, controller so pro v1
r|preference|u/up:ggplot2|grafico em ggplot2 com theme_minimal, odeio o fundo cinza
tf|correction|p/cf:for_each|usa for_each e nao count nesses buckets
tch|reversal|p/pk:input()|pode usar input() de novo nos exercicios, o corretor manda stdin agora
"""

HAND += r"""
and|fact_in_passing|p/pk:detekt|limpa os warnings do modulo do carrinho, ah o detekt roda no ci e quebra o build
ios|preference|u/up:pbxproj|quando mexer no project.pbxproj me explica o que mudou, nao consigo revisar esse arquivo
ios|none_complaint||o xcode sempre esquece o time de assinatura depois do pull, que saco
wp|update|p/pk:kinsta|o site foi pra kinsta ontem, os cron do cpanel sumiram
wp|none_paste||PHP Notice:  Trying to access array offset on value of type null in /wp-content/themes/acai/inc/cardapio.php on line 37
lar|explicit|p/pk:pint|roda o pint antes de todo commit, preset do laravel, nao esquece
lar|none_hypothetical||se a gente fosse pro octane os singletons do service provider vazariam entre requests?
clim|update|p/pk:levante|agora a gente ta no levante, o mistral foi desligado
bio|preference|u/up:snakemake|nas regras do snakemake eu prefiro input e output com nome
bio|none_quote||o revisor escreveu: "os autores devem justificar o limiar de FDR"
go|two_facts|p/pk:sqlc&p/pk:goose|as queries sao geradas com sqlc e as migrations sao goose
vue|correction|p/cf:defineprops|chega de options api em componente novo, so script setup com defineProps
lua|explicit|p/pk:modinfo.lua|tem que subir a versao no modinfo.lua senao a workshop recusa o upload
sec|correction|p/cf:nuclei|nao escreve scanner na mao pra isso, usa um template do nuclei
cpp|none_question||a gente sempre alinha os structs de ordem em 64 bytes ou so os quentes?
svk|explicit|p/pk:zod|todas as form actions validam com os schemas zod de src/lib/schemas
hs|correction|p/cf:text|usa Text e nao String pro que o usuario ve, ja falei
ros|none_oneoff||grava um bag de /scan e /odom por 30 segundos
tf|update|p/pk:opentofu|migramos pro opentofu, agora é tofu plan
spk|none_thistask||so nesse backfill pode dar collect() no driver, é pouco dado
rb|explicit|p/pk:bin/dev|sobe o app com bin/dev, ele ja roda os watchers de css e js
spr|none_assistant||voce disse "o limite da transação ta certo" mas o insert de auditoria ta fora
tch|correction|p/cf:recursao|nada de recursao nos exercicios iniciantes, eles ainda nao viram
tch|none_smalltalk||semana que vem acabam as aulas, a criançada ta elétrica
"""

HAND += r"""
lar|reversal|p/pk:livewire|voltamos pro livewire no admin, o teste com inertia acabou
rb|reversal|p/pk:rspec|o rspec voltou, testamos minitest um mes e ninguem aguentou
wp|none_thanks||salvou minha vida, o cliente ia me ligar agora
tf|none_assistant||voce escreveu "essa mudança é segura pra aplicar" e ela queria destruir o nat gateway...
k8s|none_complaint||o certificado do webhook sempre expira quando eu to de ferias
net|none_question||os repositorios sempre sao registrados como scoped ou o de cache pode ser singleton?
vue|none_oneoff||usa yarn nessa instalação, o repo antigo de nuxt 2 ainda tem yarn.lock
spr|none_quote||do comite de arquitetura: "todo serviço novo deve expor uma spec openapi 3.1"
"""

HAND += r"""
and|none_oneoff||usa o emulador do pixel 7 nesse teste, meu celular morreu
go|none_quote||meu lead acabou de mandar no slack: "nada de serviço novo até quebrar o monolito"
svk|correction|p/cf:$state|a gente ta no svelte 5, usa $state e $derived, nada daquela sintaxe velha com let e $:
rb|correction|p/cf:update_all|nao usa update_all ali, ele pula os callbacks e a gente precisa do callback de auditoria
bio|fact_in_passing|p/pk:novaseq|desculpa o textão mas o lote novo é da novaseq, 2x150, os parametros da miseq nao servem
tch|fact_in_passing|p/pk:sétimo ano|deixa os exercicios de loop mais leves, é uma turma de sétimo ano
k8s|none_thistask||so nessa sessao de debug sobe o log level pra debug no deployment do manager
el|none_complaint||a assinatura de codigo no windows sempre quebra quando renova o certificado
"""

HAND += r"""
lar|explicit|p/pk:laravel cloud|só pra saber, produção ta no laravel cloud, nada de forge nesse cliente
svk|none_question||os endpoints da api sempre tem o prefixo /api/v1 ou so os publicos?
wp|correction|p/cf:elementor|nao coloca mais widget do elementor, o cliente paga por gutenberg puro
and|none_paste||> Task :app:kaptDebugKotlin FAILED error: [Hilt] Missing @InstallIn on module
bio|preference|u/up:português|comentario nos scripts em português pfv, o resto do lab nao le ingles
tf|fact_in_passing|p/pk:sops|revisa o modulo do rds, e os segredos sao criptografados com sops em secrets/
go|none_thanks||show, compilou
clim|none_hypothetical||e se a gente colocar a parametrizacao nova de nuvem, quanto levaria uma rodada de 100 anos?
sec|none_oneoff||roda um nmap rapido na faixa do lab e me passa as portas abertas
rb|update|p/pk:rails 7.2|ja estamos no rails 7.2, o branch 7.1 fica so pra patch
el|none_smalltalk||que calor hoje em fortaleza, o notebook ta fritando
spk|correction|p/cf:udf|nada de udf em python pra isso, usa as funcoes nativas do spark
ios|none_thistask||so pra demo de amanha pode deixar o usuario de teste fixo no codigo
"""

TASKS = r"""
and|none_oneoff||arruma o crash ao girar a tela de configuracoes
ios|none_oneoff||renomeia ProfileView pra AccountView no projeto todo
wp|none_oneoff||deixa o header fixo no celular
lar|none_oneoff||adiciona soft delete no model de notas fiscais
bio|none_oneoff||cria uma regra que conta reads por amostra
go|none_oneoff||coloca timeout no handler de rastreio
vue|none_oneoff||deixa a tabela de preços responsiva
cpp|none_oneoff||faz profiling do feed handler e me fala os hot spots
net|none_oneoff||adiciona paginação no endpoint de pedidos
tf|none_oneoff||cria um alarme no cloudwatch pra fila
rb|none_oneoff||resolve o n+1 no controller de comentarios
tch|none_oneoff||escreve mais tres exercicios de while
"""

FACTS = r"""
and|fact_in_passing|p/pk:minsdk|o minSdk desse app é 26
ios|fact_in_passing|p/pk:testflight|as betas vao pro testflight toda quinta
lar|fact_in_passing|p/pk:mysql 8|prod é mysql 8, nao mariadb
bio|fact_in_passing|p/pk:/scratch|arquivo grande vai pro /scratch, a home tem cota
go|fact_in_passing|p/pk:go 1.22|todos os servicos tao no go 1.22
vue|fact_in_passing|p/pk:nuxt 3|agora é tudo nuxt 3
cpp|fact_in_passing|p/pk:bazel|o build é bazel, cmake é so pro ide
svk|fact_in_passing|p/pk:drizzle|o orm é drizzle
tf|fact_in_passing|p/pk:sa-east-1|tudo roda em sa-east-1
rb|fact_in_passing|p/pk:kamal|o deploy agora é com kamal
spr|fact_in_passing|p/pk:java 21|tamo no java 21 com spring boot 3.2
tch|fact_in_passing|p/pk:thonny|os alunos usam thonny
"""

rows = build("pt", HAND, TASKS, FACTS, [", ah e ", ", btw ", ". só pra saber: ", ", aliás ", ". fyi "],
             [" e depois ", ", em seguida ", ". também ", " e "], 220)
write("pt", rows)
