"""Italian written turns (see common.py)."""
# ruff: noqa: E501  (one turn a line: the lines are data)
from common import build, write

HAND = r"""
and|preference|u/up:compose|preferisco che le schermate nuove siano in compose, l'xml è roba legacy
and|correction|p/cf:ksp|no. ksp. kapt l'abbiamo tolto mesi fa, non rimetterlo nel gradle
and|none_question||i viewmodel li mettiamo sempre nel modulo feature o era solo per il login?
and|none_paste||Cannot access 'androidx.lifecycle.ViewModel' which is a supertype of 'HomeViewModel'
ios|explicit|p/pk:fastlane match|ricordati che firmiamo con fastlane match, mai creare certificati a mano in xcode
ios|correction|p/cf:async/await|basta completion handler, il progetto è tutto async/await
ios|none_thistask||solo in questa PR puoi lasciare i force unwrap, li sistemo dopo io
ios|none_hypothetical||se un giorno molliamo ios 15 potremmo usare observation giusto?
wp|fact_in_passing|p/pk:aruba|sistemami il form contatti, tra l'altro il sito del cliente è su aruba quindi niente root
wp|preference|u/up:tabs|in php uso i tabs, non convertirmi i file in spazi
wp|none_quote||metti nel footer: "© 2025 Pasticceria Bianchi, tutti i diritti riservati"
wp|none_thanks||grazie mille, funziona!
lar|explicit|p/pk:sail|tieni a mente che tutto passa da sail, è sail artisan migrate e non php artisan
lar|correction|p/cf:pest|no, i test sono in pest, niente classi phpunit
lar|two_facts|p/pk:horizon&p/pk:forge|le code girano su horizon e i deploy passano da forge
lar|none_oneoff||usa pnpm per installare le dipendenze del front adesso, npm si pianta sul lockfile
clim|preference|u/up:makie|per le figure preferisco makie a plots.jl
clim|reference|p/rm:confluence|la descrizione del modello è sul confluence del gruppo, guarda lì prima di tirare a indovinare le unità
clim|none_complaint||la coda del cluster il venerdì è sempre un inferno, altre 6 ore
bio|explicit|p/pk:mamba|gli ambienti si creano con mamba da environment.yml, non installarci roba con pip
bio|correction|p/cf:hg38|ma no, hg38. tutta la pipeline è hg38
bio|update|p/pk:slurm|siamo passati a slurm, il profilo sge è morto
go|preference|u/up:table-driven|mi piacciono i test table-driven, scrivili così
go|correction|p/cf:errors.is|non confrontare gli errori con ==, usa errors.Is
go|none_smalltalk||ahah il team consegne ha ordinato 40 pizze per il rilascio
go|none_question||dal layer repo restituiamo sempre puntatori o è misto?
vue|explicit|p/pk:pinia|lo store è pinia, vuex non c'è più, ricordatelo per i moduli nuovi
vue|reversal|p/pk:tailwind|sulle landing tailwind è di nuovo ammesso, il cliente ha cambiato idea
vue|none_thistask||per questa landing va bene lo stile inline, è usa e getta
lua|preference|u/up:local|dichiara sempre local, odio le globali che scappano nelle mod
lua|none_question||il gioco ricarica gli script al salvataggio o devo sempre riavviare?
k8s|explicit|p/pk:make manifests|dopo aver toccato i tipi dell'api lancia make manifests, le crd sono generate
k8s|none_paste||unable to decode "config/crd/bases/ops.acme.io_backups.yaml": json: cannot unmarshal string
sec|preference|u/up:cve|quando riassumi una vuln parti dal cve e dalle versioni colpite
sec|none_hypothetical||mettiamo che il segreto jwt finisca fuori, si potrebbero forgiare token admin?
sf|explicit|p/pk:soql|niente soql nei cicli, lo scorso trimestre abbiamo sforato i governor limits in prod
sf|correction|p/cf:sfdx|ora è sf, non sfdx
cpp|correction|p/cf:std::map|niente std::map nel hot path. mai. usa la flat hash map
cpp|none_complaint||dopo un aggiornamento del kernel la latenza è sempre pessima
svk|update|p/pk:fly.io|la settimana scorsa siamo passati da vercel a fly.io
svk|preference|u/up:brevi|risposte brevi per favore, leggo il codice più in fretta del testo
net|correction|p/cf:ilogger|basta Console.WriteLine, inietta ILogger<T>
net|none_assistant||hai scritto "ho messo il DbContext in AsNoTracking", ok ma i test li hai lanciati?
hs|preference|u/up:cabal|per le mie cose preferisco cabal a stack
ros|explicit|p/pk:--symlink-install|compiliamo con colcon build --symlink-install, sennò i nodi python si rompono
r|correction|p/cf:renv|usa renv, niente install.packages globale sul server
r|none_thanks||grazie, l'app shiny si apre di nuovo
tf|explicit|p/pk:terragrunt|tutti gli ambienti sono sotto terragrunt, mai terraform apply nudo in live/
tf|none_question||perché il plan mostra sempre un diff sulla policy iam anche se non è cambiato niente?
spk|correction|p/cf:dataframe|niente rdd per favore, solo api dataframe
rb|update|p/pk:solid queue|con rails 8 siamo passati da sidekiq a solid queue
rb|none_complaint||bundler si rompe sempre quando aggiorno ruby, ogni volta
el|correction|p/cf:electron-forge|usiamo electron-forge, non electron-builder
spr|explicit|p/pk:flyway|modifiche al db solo con migrazioni flyway, ricordatelo
spr|correction|p/cf:lombok|niente lombok. l'ha vietato la review di sicurezza della banca
spr|reference|p/rm:jira|i ticket sono su jira, progetto PAY
tch|explicit|p/pk:python 3.8|i portatili della scuola hanno ancora python 3.8, quindi niente match
tch|none_quote||testo dell'esercizio: "Scrivi una funzione che restituisce il più grande di tre numeri."
deno|none_hypothetical||bun sarebbe più veloce se togliessimo lo strato di compatibilità con node?
"""

HAND += r"""
and|none_oneoff||usa il compose bom 2024.06 solo per questo modulo, il resto lo vedo la settimana prossima
and|none_complaint||android studio si mangia sempre 12 giga di ram appena apro il progetto
ios|update|p/pk:spm|finalmente abbiamo ucciso cocoapods, ora è tutto spm
ios|none_question||swiftlint è fissato a una versione o brew scarica l'ultima?
wp|explicit|p/pk:tema figlio|ricordati: il tema padre non si tocca mai, tutto nel tema figlio
wp|correction|p/cf:wp_enqueue_script|non incollare tag script in header.php, usa wp_enqueue_script
lar|update|p/pk:php 8.3|nel weekend abbiamo portato prod a php 8.3, le readonly class vanno bene
lar|reference|p/rm:sentry|gli errori sono su sentry, progetto laravel-api, guarda lì prima
clim|correction|p/cf:kelvin|no, le temperature in quel file sono in kelvin, non convertirle come se fossero celsius
bio|two_facts|p/pk:fastp&p/pk:star|il trimming è con fastp e l'allineamento con star
bio|none_thistask||per questo test usa solo il subset di chr22, non tutto il genoma
go|none_hypothetical||se passassimo da grpc a connect bisognerebbe rigenerare i client?
go|update|p/pk:otel|il tracing adesso è otel verso tempo, jaeger l'hanno spento il mese scorso
vue|correction|p/cf:useasyncdata|per i dati di pagina niente onMounted con axios, usa useAsyncData
vue|none_question||è una regola che i componenti abbiano sempre il nome in PascalCase?
k8s|preference|u/up:kubectl|dammi comandi kubectl semplici, qui non ho k9s
sec|none_oneoff||cerca chiavi aws hardcoded nel binario e dimmi cosa trovi
cpp|two_facts|p/pk:catch2&p/pk:conan|i test sono catch2 e le dipendenze vengono da conan
svk|none_smalltalk||oggi è arrivato il primo cliente pagante!!! ok torniamo al lavoro
net|update|p/pk:minimal api|i nuovi endpoint sono minimal api, i controller solo per la v1
r|preference|u/up:ggplot2|grafici in ggplot2 con theme_minimal, odio lo sfondo grigio
tf|correction|p/cf:for_each|per quei bucket usa for_each e non count
tch|reversal|p/pk:input()|negli esercizi si può di nuovo usare input(), il correttore ora passa stdin
"""

HAND += r"""
and|fact_in_passing|p/pk:detekt|pulisci i warning del modulo carrello, tra l'altro detekt gira in ci e rompe la build
ios|preference|u/up:pbxproj|quando tocchi project.pbxproj spiegami cosa hai cambiato, quel file non riesco a revisionarlo
ios|none_complaint||xcode dopo ogni pull si scorda sempre il team di firma, che palle
wp|update|p/pk:kinsta|il sito ieri è passato su kinsta, i cron di cpanel non ci sono più
wp|none_paste||PHP Warning:  Undefined array key "prezzo" in /wp-content/themes/bianchi-child/inc/listino.php on line 64
lar|explicit|p/pk:pint|prima di ogni commit lancia pint, preset laravel, ricordatelo
lar|none_hypothetical||se passassimo a octane i singleton del service provider si mischierebbero tra le richieste?
clim|update|p/pk:levante|ora siamo su levante, mistral l'hanno spento
bio|preference|u/up:snakemake|nelle regole snakemake mi piacciono input e output con nome
bio|none_quote||il revisore ha scritto: "gli autori dovrebbero giustificare la soglia di FDR"
go|two_facts|p/pk:sqlc&p/pk:goose|le query si generano con sqlc e le migrazioni sono goose
vue|correction|p/cf:defineprops|basta options api nei componenti nuovi, solo script setup con defineProps
lua|explicit|p/pk:modinfo.lua|la versione in modinfo.lua va alzata, sennò il workshop rifiuta l'upload
sec|correction|p/cf:nuclei|non scrivere uno scanner a mano per quello, usa un template nuclei
cpp|none_question||allineiamo sempre le struct degli ordini a 64 byte o solo quelle calde?
svk|explicit|p/pk:zod|tutte le form action validano con gli schemi zod di src/lib/schemas
hs|correction|p/cf:text|usa Text e non String per quello che vede l'utente, te l'ho già detto
ros|none_oneoff||registra un bag di /scan e /odom per 30 secondi
tf|update|p/pk:opentofu|siamo passati a opentofu, adesso è tofu plan
spk|none_thistask||solo per questo backfill va bene fare collect() sul driver, sono pochi dati
rb|explicit|p/pk:bin/dev|avvia l'app con bin/dev, fa partire anche i watcher di css e js
spr|none_assistant||dici "il confine della transazione è giusto" ma l'insert di audit è fuori
tch|correction|p/cf:ricorsione|niente ricorsione negli esercizi base, non l'hanno ancora fatta
tch|none_smalltalk||la settimana prossima finisce la scuola, i ragazzi sono scatenati
"""

HAND += r"""
lar|reversal|p/pk:livewire|per l'admin torniamo a livewire, l'esperimento con inertia è finito
rb|reversal|p/pk:rspec|rspec è tornato, un mese di minitest e nessuno lo sopportava
wp|none_thanks||mi hai salvato, il cliente stava per chiamarmi
tf|none_assistant||hai scritto "questa modifica si può applicare in sicurezza" e voleva distruggere il nat gateway...
k8s|none_complaint||il certificato del webhook scade sempre proprio quando sono in ferie
net|none_question||registriamo sempre i repository come scoped o quello della cache può essere singleton?
vue|none_oneoff||usa yarn per questa installazione, il vecchio repo nuxt 2 ha ancora lo yarn.lock
spr|none_quote||dal comitato di architettura: "tutti i nuovi servizi devono esporre una spec openapi 3.1"
"""

HAND += r"""
and|none_oneoff||per questo giro usa l'emulatore del pixel 7, il telefono è scarico
go|none_quote||il mio lead ha appena scritto su slack: "niente nuovi servizi finché non spezziamo il monolite"
svk|correction|p/cf:$state|siamo su svelte 5, usa $state e $derived, non la vecchia sintassi con let e $:
rb|correction|p/cf:update_all|lì non usare update_all, salta le callback e ci serve quella dell'audit log
bio|fact_in_passing|p/pk:novaseq|scusa il papiro ma il nuovo lotto viene dal novaseq, 2x150, i parametri del miseq non vanno
tch|fact_in_passing|p/pk:seconda media|rendi più facili gli esercizi sui cicli, è una seconda media
k8s|none_thistask||solo per questa sessione di debug alza il log level a debug nel deployment del manager
el|none_complaint||la firma del codice su windows si rompe sempre quando rinnovano il certificato
"""

HAND += r"""
lar|explicit|p/pk:laravel cloud|per info la produzione è su laravel cloud, niente più forge per questo cliente
svk|none_question||gli endpoint dell'api hanno sempre il prefisso /api/v1 o solo quelli pubblici?
wp|correction|p/cf:elementor|non mettermi altri widget elementor, il cliente paga per gutenberg puro
and|none_paste||> Task :app:compileDebugKotlin FAILED e: 'when' expression must be exhaustive
bio|preference|u/up:italiano|i commenti negli script in italiano per favore, il resto del lab non legge l'inglese
tf|fact_in_passing|p/pk:sops|guarda il modulo rds, ah e i segreti sono cifrati con sops in secrets/
go|none_thanks||grande, compila
clim|none_hypothetical||se mettessimo la nuova parametrizzazione delle nubi, quanto ci metterebbe una corsa di 100 anni?
sec|none_oneoff||fai un nmap veloce sul range del lab e dammi le porte aperte
rb|update|p/pk:rails 7.2|siamo su rails 7.2 ormai, il branch 7.1 solo per le patch
el|none_smalltalk||oggi a napoli si muore di caldo, il portatile scotta
spk|correction|p/cf:udf|niente udf python per questo, usa le funzioni native di spark
ios|none_thistask||solo per la demo di domani puoi scrivere l'utente di test a mano nel codice
"""

TASKS = r"""
and|none_oneoff||sistema il crash quando ruoti la schermata impostazioni
ios|none_oneoff||rinomina ProfileView in AccountView ovunque
wp|none_oneoff||rendi l'header fisso su mobile
lar|none_oneoff||aggiungi il soft delete al modello fatture
bio|none_oneoff||aggiungi una regola che conta le reads per campione
go|none_oneoff||metti un timeout all'handler di tracking
vue|none_oneoff||rendi responsive la tabella prezzi
cpp|none_oneoff||fai il profiling del feed handler e dimmi i punti caldi
net|none_oneoff||aggiungi la paginazione all'endpoint ordini
tf|none_oneoff||crea un allarme cloudwatch sulla profondità della coda
rb|none_oneoff||sistema l'n+1 nel controller dei commenti
tch|none_oneoff||scrivi altri tre esercizi sui cicli while
"""

FACTS = r"""
and|fact_in_passing|p/pk:minsdk|il minSdk dell'app è 26
ios|fact_in_passing|p/pk:testflight|le beta vanno su testflight ogni giovedì
lar|fact_in_passing|p/pk:mysql 8|prod è mysql 8, non mariadb
bio|fact_in_passing|p/pk:/scratch|i file grossi vanno in /scratch, la home ha la quota
go|fact_in_passing|p/pk:go 1.22|tutti i servizi sono su go 1.22
vue|fact_in_passing|p/pk:nuxt 3|ormai è tutto nuxt 3
cpp|fact_in_passing|p/pk:bazel|si compila con bazel, cmake serve solo all'ide
svk|fact_in_passing|p/pk:drizzle|l'orm è drizzle
tf|fact_in_passing|p/pk:eu-south-1|sta tutto in eu-south-1
rb|fact_in_passing|p/pk:kamal|adesso facciamo deploy con kamal
spr|fact_in_passing|p/pk:java 21|siamo su java 21 con spring boot 3.2
tch|fact_in_passing|p/pk:thonny|gli studenti usano thonny
"""

rows = build("it", HAND, TASKS, FACTS, [", tra l'altro ", ", btw ", ". per info: ", ", ah e ", ". fyi "],
             [" e poi ", ", dopo ", ". anche ", " e "], 220)
write("it", rows)
