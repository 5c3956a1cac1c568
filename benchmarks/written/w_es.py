"""Spanish written turns (see common.py)."""
# ruff: noqa: E501  (one turn a line: the lines are data)
from common import build, write

HAND = r"""
and|preference|u/up:compose|prefiero que las pantallas nuevas vayan en compose, los xml son legacy
and|correction|p/cf:ksp|no. ksp. kapt lo quitamos hace meses, no lo vuelvas a meter en gradle
and|none_question||los viewmodels siempre van en el modulo feature o solo el del login?
ios|explicit|p/pk:fastlane match|acuerdate que firmamos con fastlane match, nada de crear certificados a mano en xcode
ios|none_thistask||solo en este PR deja los force unwrap, luego los limpio yo
ios|none_hypothetical||si algun dia dejamos ios 15 podriamos usar observation no?
wp|fact_in_passing|p/pk:siteground|arreglame el formulario de contacto, por cierto el sitio del cliente esta en siteground
wp|preference|u/up:tabs|en php uso tabs, no me cambies los archivos a espacios porfa
wp|none_quote||pon en el footer: "© 2025 Panadería La Espiga, todos los derechos reservados"
wp|none_thanks||genial gracias!! ya funciona
lar|explicit|p/pk:sail|ojo que todo va por sail, es sail artisan migrate y no php artisan
lar|correction|p/cf:pest|no, los tests son con pest, no clases de phpunit
lar|none_oneoff||usa pnpm para instalar las deps del front ahora, npm se atasca con el lockfile
clim|preference|u/up:makie|para las figuras prefiero makie antes que plots.jl
clim|none_complaint||la cola del cluster siempre va fatal los viernes, 6 horas esperando otra vez
bio|explicit|p/pk:mamba;environment.yml|ten en cuenta que los entornos se crean con mamba desde environment.yml, no instales cosas con pip
bio|correction|p/cf:hg38|que no, hg38. todo el pipeline es hg38
bio|none_paste||WorkflowError: Failed to solve the job scheduling problem with pulp
go|preference|u/up:table-driven|me gustan los tests table-driven, escribelos asi
go|correction|p/cf:errors.is|no compares errores con ==, usa errors.Is
go|update|p/pk:nats|los eventos de envios ahora van por nats, kafka ya no se usa
go|none_smalltalk||jaja el equipo de reparto pidio 40 pizzas para la release
vue|explicit|p/pk:pinia|el store es pinia, vuex ya no existe, recuerdalo para los modulos nuevos
vue|reversal|p/pk:tailwind|volvemos a permitir tailwind en las landings, el cliente cambio de idea
vue|none_quote||el cliente escribio: "el hero puede ser mas... vibrante?" ni idea de que significa
lua|preference|u/up:local|declara siempre variables local, odio los globales
lua|none_question||el juego recarga los scripts al guardar o siempre hay que reiniciar?
k8s|explicit|p/pk:make manifests|acuerdate de correr make manifests despues de tocar los tipos de la api
k8s|none_paste||reconciler error: Operation cannot be fulfilled on backups.ops.acme.io "nightly"
sec|preference|u/up:cve|cuando resumas una vuln empieza por el cve y las versiones afectadas
sec|none_hypothetical||hipoteticamente si se filtra el secreto jwt se podrian falsificar tokens de admin?
sf|explicit|p/pk:soql|recuerda, nada de soql dentro de bucles, nos comimos los governor limits en prod
sf|correction|p/cf:sf|es sf, no sfdx, los comandos viejos estan deprecados en la imagen de ci
cpp|correction|p/cf:std::map|nada de std::map en el hot path. nunca. usa el flat hash map
cpp|none_complaint||los numeros de latencia siempre salen horribles despues de actualizar el kernel
svk|update|p/pk:fly.io|nos mudamos de vercel a fly.io la semana pasada
svk|preference|u/up:cortas|respuestas cortas porfa, leo codigo mas rapido que texto
svk|none_oneoff||esta vez usa bun para correr el seed
net|correction|p/cf:ilogger|deja de usar Console.WriteLine, inyecta ILogger<T>
net|none_assistant||dijiste "he cambiado el DbContext a AsNoTracking", vale pero corriste los tests?
hs|preference|u/up:cabal|para mis cosas prefiero cabal a stack
ros|explicit|p/pk:--symlink-install|recuerda que compilamos con colcon build --symlink-install, si no los nodos python fallan
ros|none_paste||[WARN] [controller_server]: Control loop missed its desired rate of 20.0000Hz
r|correction|p/cf:renv|usa renv, no hagas install.packages global en el servidor
r|none_thanks||mil gracias, la app de shiny carga otra vez
tf|explicit|p/pk:terragrunt|todos los entornos van con terragrunt, no hagas terraform apply a pelo en live/
tf|reference|p/rm:pagerduty|las guardias estan en pagerduty en "platform-sre", mira quien esta antes de llamar
tf|none_question||por que el plan siempre muestra diff en la policy de iam si no cambio nada?
spk|correction|p/cf:dataframe|nada de rdd porfa, solo la api de dataframe
rb|update|p/pk:solid queue|pasamos de sidekiq a solid queue con rails 8, borra lo de sidekiq que veas
rb|none_complaint||bundler siempre se rompe al actualizar ruby, siempre
el|correction|p/cf:electron-forge|usamos electron-forge no electron-builder
spr|explicit|p/pk:flyway|cambios de bd solo con migraciones flyway, acuerdate
spr|correction|p/cf:lombok|sin lombok. lo prohibio la revision de seguridad del banco
spr|reference|p/rm:jira|los tickets estan en jira, proyecto PAY, ponlos en el titulo del pr
tch|explicit|p/pk:python 3.8|los portatiles del cole siguen con python 3.8, asi que nada de match
tch|none_quote||enunciado: "Escribe una funcion que devuelva el mayor de tres numeros."
tch|preference|u/up:f-strings|usa f-strings en los ejercicios, es lo primero que aprenden
deno|none_hypothetical||seria bun mas rapido si quitamos la capa de compatibilidad con node?
"""

HAND += r"""
and|none_oneoff||usa el compose bom 2024.06 solo en este modulo, lo demas lo veo la semana que viene
and|none_complaint||android studio siempre se come 12 gigas de ram nada mas abrir el proyecto
ios|update|p/pk:spm|por fin matamos cocoapods, ahora todo es spm, si ves un Podfile ignoralo
ios|none_question||swiftlint lo tenemos fijado a una version o brew instala la ultima?
wp|explicit|p/pk:tema hijo|acuerdate: el tema padre no se toca nunca, todo va en el tema hijo
wp|correction|p/cf:wp_enqueue_script|no pegues etiquetas script en header.php, usa wp_enqueue_script
lar|update|p/pk:php 8.3|el finde subimos prod a php 8.3, ya puedes usar readonly classes
lar|reference|p/rm:sentry|los errores estan en sentry, proyecto laravel-api, mira ahi primero
clim|correction|p/cf:kelvin|no, las temperaturas de ese fichero estan en kelvin, no las conviertas como si fueran celsius
bio|two_facts|p/pk:fastp&p/pk:star|el trimming es con fastp y el alineamiento con star
bio|none_thistask||para esta prueba usa solo el subset de chr22, no el genoma entero
go|none_hypothetical||si pasaramos de grpc a connect habria que regenerar los clientes?
go|update|p/pk:otel|el tracing ahora es otel hacia tempo, jaeger lo apagaron el mes pasado
vue|correction|p/cf:useasyncdata|no uses onMounted con axios para datos de pagina, usa useAsyncData
vue|none_question||es norma que los componentes siempre tengan nombre en PascalCase?
k8s|preference|u/up:kubectl|dame comandos de kubectl normales, aqui no tengo k9s
sec|none_oneoff||busca claves de aws hardcodeadas en el binario y dime que encuentras
cpp|two_facts|p/pk:catch2&p/pk:conan|los tests son catch2 y las deps vienen de conan
svk|none_smalltalk||hoy tuvimos el primer cliente que paga!!! bueno a trabajar
net|update|p/pk:minimal apis|los endpoints nuevos son minimal apis, los controllers solo para v1
r|preference|u/up:ggplot2|graficos con ggplot2 y theme_minimal, odio el fondo gris
tf|correction|p/cf:for_each|usa for_each y no count para esos buckets
tch|reversal|p/pk:input()|ya se puede usar input() otra vez en los ejercicios, el corrector mete stdin
"""

HAND += r"""
and|fact_in_passing|p/pk:detekt|limpia los warnings del modulo carrito, ojo que detekt corre en ci y rompe el build
ios|preference|u/up:pbxproj|cuando toques project.pbxproj explicame que cambiaste, ese fichero no lo puedo revisar
ios|none_complaint||xcode siempre se olvida del equipo de firma despues de un pull, que pesado
wp|update|p/pk:kinsta|el sitio se mudo a kinsta ayer, los cron de cpanel ya no existen
wp|none_paste||PHP Warning:  Undefined array key "precio" in /wp-content/plugins/reservas/reservas.php on line 214
lar|explicit|p/pk:pint|acuerdate de pasar pint antes de cada commit, con el preset de laravel
lar|none_hypothetical||si nos pasamos a octane, los singletons del service provider se mezclarian entre requests?
clim|update|p/pk:levante|ahora estamos en levante, mistral lo apagaron
bio|preference|u/up:snakemake|en las reglas de snakemake me gustan los inputs y outputs con nombre
bio|none_quote||el revisor escribio: "los autores deberian justificar el umbral de FDR"
go|two_facts|p/pk:sqlc&p/pk:goose|las queries se generan con sqlc y las migraciones son goose
vue|correction|p/cf:defineprops|deja la options api en componentes nuevos, script setup con defineProps y ya
lua|explicit|p/pk:modinfo.lua|hay que subir la version en modinfo.lua o el workshop rechaza la subida
sec|correction|p/cf:nuclei|no escribas un escaner a mano para eso, usa una plantilla de nuclei
cpp|none_question||alineamos siempre los structs de ordenes a 64 bytes o solo los calientes?
svk|explicit|p/pk:zod|todas las form actions validan con los esquemas zod de src/lib/schemas
hs|correction|p/cf:text|usa Text y no String para lo que ve el usuario, te lo repito
ros|none_oneoff||graba un bag de /scan y /odom de 30 segundos
tf|update|p/pk:opentofu|nos pasamos a opentofu, ahora es tofu plan
spk|none_thistask||solo para este backfill puedes hacer collect() al driver, son pocos datos
rb|explicit|p/pk:bin/dev|arranca la app con bin/dev, levanta tambien los watchers de css y js
spr|none_assistant||dijiste "el limite de la transaccion es correcto" pero el insert de auditoria esta fuera
tch|correction|p/cf:recursion|nada de recursion en los ejercicios de principiantes, aun no la han visto
tch|none_smalltalk||la semana que viene acaba el curso, los chavales estan que no paran
"""

HAND += r"""
lar|reversal|p/pk:livewire|volvemos a livewire para el admin, el experimento con inertia se acabo
rb|reversal|p/pk:rspec|rspec vuelve, probamos minitest un mes y nadie lo soportaba
wp|none_thanks||me has salvado la vida, el cliente estaba a punto de llamarme
tf|none_assistant||escribiste "este cambio es seguro de aplicar" y queria destruir el nat gateway...
k8s|none_complaint||el certificado del webhook siempre caduca justo cuando estoy de vacaciones
net|none_question||los repositorios siempre se registran como scoped o el de cache puede ser singleton?
vue|none_oneoff||usa yarn para esta instalacion, el repo viejo de nuxt 2 aun tiene yarn.lock
spr|none_quote||del comite de arquitectura: "todos los servicios nuevos deben exponer una spec openapi 3.1"
"""

HAND += r"""
and|none_oneoff||usa el emulador del pixel 7 para esta prueba, mi movil esta muerto
go|none_quote||mi lead acaba de escribir en slack: "nada de servicios nuevos hasta partir el monolito"
svk|correction|p/cf:$state|estamos en svelte 5, usa $state y $derived, no la sintaxis vieja con let y $:
rb|correction|p/cf:update_all|ahi no uses update_all, se salta los callbacks y necesitamos el del audit log
bio|fact_in_passing|p/pk:novaseq|perdon por el tocho pero el lote nuevo es de la novaseq, 2x150, los parametros de la miseq no valen
tch|fact_in_passing|p/pk:primero de eso|haz los ejercicios de bucles mas suaves, son chavales de primero de eso
k8s|none_thistask||solo para esta sesion de debug sube el log level a debug en el deployment del manager
el|none_complaint||la firma de codigo en windows siempre se rompe cuando renuevan el certificado
"""

HAND += r"""
lar|explicit|p/pk:laravel cloud|que sepas que produccion esta en laravel cloud, nada de forge ya para este cliente
svk|none_question||oye, los endpoints de la api siempre llevan el prefijo /api/v1 o solo los publicos?
wp|correction|p/cf:elementor|no me metas mas widgets de elementor, el cliente paga por gutenberg puro
and|none_paste||> Task :app:compileDebugKotlin FAILED e: Type mismatch: inferred type is String? but String was expected
bio|preference|u/up:español|los comentarios de los scripts en español porfa, que el resto del lab no lee ingles
tf|fact_in_passing|p/pk:sops|revisa el modulo de rds, ah y los secretos van cifrados con sops en secrets/
go|none_thanks||vale crack, ya compila
clim|none_hypothetical||y si metemos la parametrizacion nueva de nubes, cuanto tardaria una corrida de 100 años?
sec|none_oneoff||pasale un nmap rapido al rango de laboratorio y dime puertos abiertos
rb|update|p/pk:rails 7.2|ya estamos en rails 7.2, el branch de 7.1 lo dejamos solo para parches
el|none_smalltalk||que calor hace hoy en sevilla, el portatil echa humo
spk|correction|p/cf:udf|nada de udfs en python para eso, usa las funciones nativas de spark
ios|none_thistask||solo para la demo de mañana puedes hardcodear el usuario de prueba
"""

TASKS = r"""
and|none_oneoff||arregla el crash al rotar la pantalla de ajustes
ios|none_oneoff||renombra ProfileView a AccountView en todo el proyecto
wp|none_oneoff||haz el header fijo en movil
lar|none_oneoff||agrega soft delete al modelo de facturas
bio|none_oneoff||agrega una regla que cuente reads por muestra
go|none_oneoff||ponle un timeout al handler de tracking
vue|none_oneoff||haz responsive la tabla de precios
k8s|none_oneoff||agrega una condicion de status para backups fallidos
cpp|none_oneoff||perfila el feed handler y dime los puntos calientes
net|none_oneoff||agrega paginacion al endpoint de pedidos
tf|none_oneoff||agrega una alarma de cloudwatch para la cola
rb|none_oneoff||arregla el n+1 del controller de comentarios
tch|none_oneoff||escribe tres ejercicios mas de bucles while
"""

FACTS = r"""
and|fact_in_passing|p/pk:minsdk|el minSdk es 26 en esta app
ios|fact_in_passing|p/pk:testflight|las betas salen a testflight los jueves
lar|fact_in_passing|p/pk:mysql 8|prod es mysql 8, no mariadb
bio|fact_in_passing|p/pk:/scratch|los ficheros grandes van a /scratch, home tiene cuota
go|fact_in_passing|p/pk:go 1.22|estamos en go 1.22 en todos los servicios
vue|fact_in_passing|p/pk:nuxt 3|todo es nuxt 3 ya
cpp|fact_in_passing|p/pk:bazel|se compila con bazel, cmake es solo para el ide
svk|fact_in_passing|p/pk:drizzle|el orm es drizzle
tf|fact_in_passing|p/pk:eu-west-1|todo vive en eu-west-1
rb|fact_in_passing|p/pk:kamal|ahora desplegamos con kamal
spr|fact_in_passing|p/pk:java 21|estamos en java 21 con spring boot 3.2
tch|fact_in_passing|p/pk:thonny|los alumnos usan thonny
"""

rows = build("es", HAND, TASKS, FACTS, [", por cierto ", ", btw ", ". ojo: ", ", ah y ", ". fyi "],
             [" y luego ", ", despues ", ". tambien ", " y "], 220)
write("es", rows)
