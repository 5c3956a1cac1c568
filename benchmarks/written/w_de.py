"""German written turns (see common.py)."""
# ruff: noqa: E501  (one turn a line: the lines are data)
from common import build, write

HAND = r"""
and|preference|u/up:compose|neue screens bitte in compose, die xml layouts sind altlast
and|correction|p/cf:ksp|nein. ksp. kapt haben wir längst rausgeworfen, bitte nicht wieder ins gradle file
and|none_question||packen wir viewmodels eigentlich immer ins feature modul oder war das nur beim login so?
and|none_paste||Execution failed for task ':app:mergeDebugResources'. > Resource compilation failed
ios|explicit|p/pk:fastlane match|merk dir: signiert wird mit fastlane match, keine zertifikate von hand in xcode anlegen
ios|correction|p/cf:async/await|hör auf mit completion handlern, das projekt ist komplett async/await
ios|none_thistask||nur für diesen PR kannst du die force unwraps drinlassen, räum ich später auf
ios|none_hypothetical||wenn wir irgendwann ios 15 droppen, könnten wir dann observation nehmen?
wp|fact_in_passing|p/pk:all-inkl|kannst du das kontaktformular fixen, die kundenseite liegt übrigens bei all-inkl, kein root
wp|preference|u/up:tabs|in php nehm ich tabs, bitte nicht auf spaces umstellen
wp|none_quote||schreib in den footer: "© 2025 Bäckerei Müller, alle Rechte vorbehalten"
wp|none_thanks||super danke, läuft!
lar|explicit|p/pk:sail|wichtig: alles läuft über sail, also sail artisan migrate, nicht php artisan
lar|correction|p/cf:pest|nee, tests schreiben wir mit pest, keine phpunit klassen
lar|none_oneoff||nimm jetzt mal pnpm für die frontend deps, npm hängt am lockfile
clim|preference|u/up:makie|für abbildungen lieber makie als plots.jl
clim|fact_in_passing|p/pk:fortran 77|schreib die interpolation in julia neu, achtung der alte strahlungscode ist fortran 77 fixed-form
clim|reference|p/rm:confluence|die modellbeschreibung steht im gruppen-confluence, bitte da nachschauen bevor du einheiten rätst
clim|none_complaint||die queue auf dem cluster ist freitags immer die hölle, wieder 6h warten
bio|explicit|p/pk:mamba|die envs baue ich mit mamba aus der environment.yml, also bitte nichts per pip reininstallieren
bio|correction|p/cf:hg38|nein, hg38. die ganze pipeline ist hg38
bio|none_oneoff||lass snakemake nochmal mit --cores 8 nur für die qc regel laufen
go|preference|u/up:table-driven|ich mag table-driven tests, schreib die bitte so
go|correction|p/cf:errors.is|fehler nicht mit == vergleichen, errors.Is nehmen
go|update|p/pk:nats|die sendungsevents laufen jetzt über nats, kafka ist raus
go|none_smalltalk||haha das zustellteam hat 40 pizzas fürs release bestellt
vue|explicit|p/pk:pinia|store ist pinia, vuex gibts nicht mehr, bitte merken
vue|reversal|p/pk:tailwind|tailwind ist auf den landingpages wieder erlaubt, kunde hat es sich anders überlegt
vue|none_quote||der kunde schrieb: "kann der hero etwas... knackiger sein?" keine ahnung was das heißt
lua|preference|u/up:local|immer local deklarieren, globale variablen in mods hasse ich
lua|none_question||lädt das spiel die skripte beim speichern neu oder muss ich immer neu starten?
k8s|explicit|p/pk:make manifests|nach änderungen an den api types immer make manifests laufen lassen, die crds werden generiert
k8s|none_paste||failed to wait for caches to sync: timed out waiting for cache to be synced for Kind *v1alpha1.Backup
sec|preference|u/up:cve|bei vuln-zusammenfassungen zuerst die cve nummer und die betroffenen versionen
sec|none_hypothetical||mal angenommen das jwt secret leakt, könnte man dann admin tokens fälschen?
sf|explicit|p/pk:soql|kein soql in schleifen, wir sind letztes quartal in prod in die governor limits gelaufen
sf|none_question||wie hoch war nochmal das heap limit bei async apex?
cpp|correction|p/cf:std::map|kein std::map im hot path. niemals. nimm die flat hash map
cpp|none_complaint||nach jedem kernel update sehen die latenzen immer furchtbar aus
svk|update|p/pk:fly.io|wir sind letzte woche von vercel zu fly.io umgezogen
svk|preference|u/up:kurz|antworte bitte kurz, code les ich schneller als text
net|explicit|p/pk:directory.packages.props|wir nutzen central package management, versionen stehen in Directory.Packages.props
net|correction|p/cf:ilogger|kein Console.WriteLine mehr, ILogger<T> injizieren
net|none_assistant||du hast geschrieben "ich habe den DbContext auf AsNoTracking umgestellt" - und die tests?
hs|preference|u/up:cabal|für meine sachen lieber cabal statt stack
ros|fact_in_passing|p/pk:humble|fix mal das remap vom odom topic, wir sind übrigens auf ros2 humble nicht iron
r|correction|p/cf:renv|pakete über renv, kein globales install.packages auf dem server
r|none_thanks||danke dir, die shiny app lädt wieder
tf|explicit|p/pk:terragrunt|alle umgebungen laufen über terragrunt, kein nacktes terraform apply in live/
tf|reversal|p/pk:t3.micro|t3.micro ist im sandbox account wieder erlaubt, budget ist durch
tf|none_question||warum zeigt der plan immer einen diff bei der iam policy obwohl sich nichts geändert hat?
spk|correction|p/cf:dataframe|bitte kein rdd code, nur dataframe api
rb|update|p/pk:solid queue|mit rails 8 sind wir von sidekiq auf solid queue gewechselt
rb|none_complaint||bundler geht nach jedem ruby upgrade kaputt, jedes mal
el|explicit|p/pk:contextisolation|contextIsolation bleibt an, alles läuft über die preload bridge
spr|explicit|p/pk:flyway|db änderungen nur über flyway migrationen, merk dir das
spr|correction|p/cf:lombok|kein lombok. hat das security review der bank verboten
spr|reference|p/rm:jira|tickets sind im jira projekt PAY, bitte in den pr titel
tch|explicit|p/pk:python 3.8|die schullaptops haben noch python 3.8, also kein match
tch|none_quote||aufgabentext: "Schreibe eine Funktion, die die größte von drei Zahlen zurückgibt."
deno|none_hypothetical||wäre bun schneller wenn wir die node kompatibilitätsschicht weglassen?
"""

HAND += r"""
and|none_oneoff||nimm die compose bom 2024.06 erstmal nur in diesem modul, den rest mach ich nächste woche
and|none_complaint||android studio frisst immer 12 gig ram sobald ich das projekt aufmache
ios|update|p/pk:spm|cocoapods ist endlich raus, alles ist jetzt spm, ein Podfile kannst du ignorieren
ios|none_question||pinnen wir swiftlint auf eine version oder zieht brew einfach die neueste?
wp|explicit|p/pk:child theme|merk dir: das parent theme wird nie angefasst, alles kommt ins child theme
wp|correction|p/cf:wp_enqueue_script|keine script tags in die header.php kleben, wp_enqueue_script nehmen
lar|update|p/pk:php 8.3|prod läuft seit dem wochenende auf php 8.3, readonly classes gehen also
lar|reference|p/rm:sentry|fehler landen in sentry im projekt laravel-api, schau da zuerst
clim|correction|p/cf:kelvin|nein, die temperaturen in der datei sind kelvin, nicht wie celsius umrechnen
bio|two_facts|p/pk:fastp&p/pk:star|getrimmt wird mit fastp, aligniert mit star
bio|none_thistask||für diesen testlauf nur das chr22 subset nehmen, nicht das ganze genom
go|none_hypothetical||wenn wir von grpc auf connect gehen würden, müssten die clients neu generiert werden?
go|update|p/pk:otel|tracing ist jetzt otel nach tempo, jaeger wurde letzten monat abgeschaltet
vue|correction|p/cf:useasyncdata|für seitendaten nicht onMounted mit axios, sondern useAsyncData
vue|none_question||ist das eine regel dass komponenten immer PascalCase dateinamen haben?
k8s|preference|u/up:kubectl|gib mir normale kubectl befehle, ich hab hier kein k9s
sec|none_oneoff||durchsuch das binary nach hartkodierten aws keys und sag mir was du findest
cpp|two_facts|p/pk:catch2&p/pk:conan|tests sind catch2 und die deps kommen aus conan
svk|none_smalltalk||heute kam der erste zahlende kunde!!! ok weiter gehts
net|update|p/pk:minimal apis|neue endpoints sind jetzt minimal apis, controller nur noch für v1
r|preference|u/up:ggplot2|plots mit ggplot2 und theme_minimal, ich hasse den grauen hintergrund
tf|correction|p/cf:for_each|für die buckets for_each statt count nehmen
tch|reversal|p/pk:input()|input() ist in den aufgaben wieder erlaubt, der autograder füttert jetzt stdin
"""

HAND += r"""
and|fact_in_passing|p/pk:detekt|räum mal die warnings im warenkorb modul auf, detekt läuft übrigens in der ci und bricht den build
ios|preference|u/up:pbxproj|wenn du project.pbxproj änderst, erklär mir was du geändert hast, die datei kann ich nicht reviewen
ios|none_complaint||xcode vergisst nach jedem pull immer das signing team, nervt
wp|update|p/pk:kinsta|die seite ist gestern zu kinsta umgezogen, die cpanel cronjobs gibts nicht mehr
wp|none_paste||PHP Deprecated:  Creation of dynamic property Mueller_Shop::$warenkorb is deprecated in /wp-content/plugins/mueller-shop/class-shop.php on line 52
lar|explicit|p/pk:pint|vor jedem commit pint laufen lassen, laravel preset, bitte merken
lar|none_hypothetical||wenn wir auf octane gehen, würden die singletons im service provider zwischen requests leaken?
clim|update|p/pk:levante|wir sind jetzt auf levante, mistral wurde abgeschaltet
bio|preference|u/up:snakemake|in snakemake regeln mag ich benannte inputs und outputs
bio|none_quote||der gutachter schrieb: "die autoren sollten die wahl der FDR schwelle begründen"
go|two_facts|p/pk:sqlc&p/pk:goose|queries werden mit sqlc generiert und migrationen sind goose
vue|correction|p/cf:defineprops|keine options api mehr in neuen komponenten, nur script setup mit defineProps
lua|explicit|p/pk:modinfo.lua|die version in modinfo.lua muss hochgezählt werden, sonst lehnt der workshop den upload ab
sec|correction|p/cf:nuclei|schreib dafür keinen eigenen scanner, nimm ein nuclei template
cpp|none_question||richten wir die order structs immer auf 64 bytes aus oder nur die heißen?
svk|explicit|p/pk:zod|alle form actions validieren mit den zod schemas aus src/lib/schemas
hs|correction|p/cf:text|nimm Text statt String für alles was der user sieht, sag ich dir dauernd
ros|none_oneoff||nimm 30 sekunden bag von /scan und /odom auf
tf|update|p/pk:opentofu|wir sind auf opentofu umgestiegen, jetzt heißt es tofu plan
spk|none_thistask||nur für diesen backfill ist collect() auf den driver ok, sind wenig daten
rb|explicit|p/pk:bin/dev|starte die app mit bin/dev, das startet auch die css und js watcher
spr|none_assistant||du sagst "die transaktionsgrenze passt", aber der audit insert liegt außerhalb
tch|correction|p/cf:rekursion|keine rekursion in den anfängeraufgaben, das hatten sie noch nicht
tch|none_smalltalk||nächste woche sind ferien, die kids drehen schon durch
"""

HAND += r"""
lar|reversal|p/pk:livewire|fürs admin sind wir zurück bei livewire, das inertia experiment ist vorbei
rb|reversal|p/pk:rspec|rspec ist zurück, einen monat minitest hat keiner ausgehalten
wp|none_thanks||du rettest mir den tag, der kunde wollte gerade anrufen
tf|none_assistant||du hast geschrieben "die änderung kann gefahrlos angewendet werden" und sie wollte das nat gateway löschen...
k8s|none_complaint||das webhook zertifikat läuft immer genau dann ab wenn ich im urlaub bin
net|none_question||registrieren wir repositories immer als scoped oder geht singleton für das cache repo?
vue|none_oneoff||nimm für diese installation yarn, das alte nuxt 2 repo hat noch ein yarn.lock
spr|none_quote||vom architekturboard: "alle neuen services müssen eine openapi 3.1 spec bereitstellen"
"""

HAND += r"""
and|none_oneoff||nimm für diesen lauf den pixel 7 emulator, mein handy ist leer
go|none_quote||mein lead hat gerade in slack geschrieben: "keine neuen services bis der monolith aufgeteilt ist"
svk|correction|p/cf:$state|wir sind auf svelte 5, nimm $state und $derived, nicht die alte let und $: syntax
rb|correction|p/cf:update_all|nimm da kein update_all, das überspringt callbacks und wir brauchen den audit log callback
bio|fact_in_passing|p/pk:novaseq|sorry für den roman, aber der neue batch kommt vom novaseq, 2x150, die miseq parameter passen nicht
tch|fact_in_passing|p/pk:7. klasse|mach die schleifenaufgaben leichter, das ist eine 7. klasse
k8s|none_thistask||nur für diese debug session das log level im manager deployment auf debug
el|none_complaint||code signing unter windows geht immer kaputt wenn das zertifikat erneuert wird
"""

HAND += r"""
lar|explicit|p/pk:laravel cloud|zur info, produktion läuft bei laravel cloud, kein forge mehr bei diesem kunden
svk|none_question||haben die api endpoints immer das präfix /api/v1 oder nur die öffentlichen?
wp|correction|p/cf:elementor|bitte keine elementor widgets mehr, der kunde zahlt für reines gutenberg
and|none_paste||> Task :app:compileDebugKotlin FAILED e: Smart cast to 'User' is impossible, because 'user' is a mutable property
bio|preference|u/up:deutsch|kommentare in den skripten bitte auf deutsch, der rest vom labor liest kein englisch
tf|fact_in_passing|p/pk:sops|schau dir das rds modul an, die secrets sind übrigens mit sops in secrets/ verschlüsselt
go|none_thanks||top, kompiliert
clim|none_hypothetical||wenn wir die neue wolkenparametrisierung einbauen, wie lange würde ein 100-jahre-lauf dauern?
sec|none_oneoff||mach einen schnellen nmap über das labornetz und gib mir die offenen ports
rb|update|p/pk:rails 7.2|wir sind jetzt auf rails 7.2, der 7.1 branch kriegt nur noch patches
el|none_smalltalk||heute ist es so heiß in köln, der laptop glüht
spk|correction|p/cf:udf|keine python udfs dafür, nimm die eingebauten spark funktionen
ios|none_thistask||nur für die demo morgen darfst du den testuser hart reinschreiben
"""

TASKS = r"""
and|none_oneoff||fix bitte den crash beim drehen vom settings screen
ios|none_oneoff||benenn ProfileView überall in AccountView um
wp|none_oneoff||mach den header auf mobil sticky
lar|none_oneoff||bau soft deletes ins rechnungsmodel ein
bio|none_oneoff||schreib eine regel die reads pro probe zählt
go|none_oneoff||bau ein timeout in den tracking handler
vue|none_oneoff||mach die preistabelle responsive
cpp|none_oneoff||profil mal den feed handler und sag mir die hot spots
net|none_oneoff||bau paging in den orders endpoint
tf|none_oneoff||leg einen cloudwatch alarm für die queue tiefe an
rb|none_oneoff||behebe das n+1 im comments controller
tch|none_oneoff||schreib noch drei aufgaben zu while schleifen
"""

FACTS = r"""
and|fact_in_passing|p/pk:minsdk|minSdk ist bei der app 26
ios|fact_in_passing|p/pk:testflight|betas gehen jeden donnerstag auf testflight
lar|fact_in_passing|p/pk:mysql 8|prod ist mysql 8, nicht mariadb
bio|fact_in_passing|p/pk:/scratch|große zwischendateien nach /scratch, home hat quota
go|fact_in_passing|p/pk:go 1.22|alle services sind auf go 1.22
vue|fact_in_passing|p/pk:nuxt 3|ist jetzt alles nuxt 3
cpp|fact_in_passing|p/pk:bazel|gebaut wird mit bazel, cmake ist nur für die ide
svk|fact_in_passing|p/pk:drizzle|das orm ist drizzle
tf|fact_in_passing|p/pk:eu-central-1|alles liegt in eu-central-1
rb|fact_in_passing|p/pk:kamal|deployt wird jetzt mit kamal
spr|fact_in_passing|p/pk:java 21|wir sind auf java 21 und spring boot 3.2
tch|fact_in_passing|p/pk:thonny|die schüler nutzen thonny
"""

rows = build("de", HAND, TASKS, FACTS, [", übrigens ", ", btw ", ". fyi: ", ", ach und ", ". nur zur info: "],
             [" und dann ", ", danach ", ". außerdem ", " und "], 220)
write("de", rows)
