"""French written turns (see common.py)."""
# ruff: noqa: E501  (one turn a line: the lines are data)
from common import build, write

HAND = r"""
and|preference|u/up:compose|je préfère que les nouveaux écrans soient en compose, le xml c'est du legacy
and|correction|p/cf:ksp|non. ksp. on a viré kapt y a des mois, le remets pas dans le gradle
and|none_question||on met toujours les viewmodels dans le module feature ou c'était juste pour le login ?
and|none_paste||Manifest merger failed : Attribute application@allowBackup value=(false) from AndroidManifest.xml:7:9-36
ios|explicit|p/pk:fastlane match|retiens que la signature passe par fastlane match, jamais de certifs créés à la main dans xcode
ios|correction|p/cf:async/await|arrête les completion handlers, tout le projet est en async/await
ios|none_thistask||juste pour cette PR tu peux laisser les force unwrap, je nettoie après
wp|fact_in_passing|p/pk:o2switch|tu peux corriger le formulaire de contact, au fait le site du client est chez o2switch donc pas de root
wp|preference|u/up:tabs|en php j'utilise des tabs, ne convertis pas mes fichiers en espaces stp
wp|none_quote||mets dans le footer : "© 2025 Boulangerie Martin, tous droits réservés"
wp|none_thanks||top merci ça marche !
lar|explicit|p/pk:sail|note bien : tout passe par sail, c'est sail artisan migrate et pas php artisan
lar|correction|p/cf:pest|non, les tests c'est en pest, pas des classes phpunit
lar|two_facts|p/pk:horizon&p/pk:forge|les queues tournent sur horizon et les déploiements passent par forge
lar|none_oneoff||utilise pnpm pour installer les deps du front maintenant, npm bloque sur le lockfile
clim|preference|u/up:makie|pour les figures je préfère makie à plots.jl
clim|reference|p/rm:confluence|la description du modèle est sur le confluence de l'équipe, regarde là avant de deviner les unités
clim|none_complaint||la file du cluster est toujours horrible le vendredi, encore 6h d'attente
bio|explicit|p/pk:mamba|les envs sont créés avec mamba depuis environment.yml, n'installe rien avec pip dedans
bio|correction|p/cf:hg38|mais non, hg38. tout le pipeline est en hg38
bio|update|p/pk:slurm|on est passés sur slurm, le profil sge est mort
go|preference|u/up:table-driven|j'aime bien les tests table-driven, écris-les comme ça
go|correction|p/cf:errors.is|ne compare pas les erreurs avec ==, utilise errors.Is
go|none_smalltalk||mdr l'équipe livraison a commandé 40 pizzas pour la release
go|none_question||on renvoie toujours des pointeurs depuis la couche repo ou c'est mélangé ?
vue|explicit|p/pk:pinia|le store c'est pinia, vuex n'existe plus, retiens-le pour les nouveaux modules
vue|reversal|p/pk:tailwind|on autorise de nouveau tailwind sur les landing pages, le client a changé d'avis
vue|none_thistask||pour cette landing seulement, le style inline ça va, c'est jetable
lua|preference|u/up:local|déclare toujours en local, je déteste les globales qui fuient
lua|none_question||le jeu recharge les scripts à la sauvegarde ou faut toujours redémarrer ?
k8s|explicit|p/pk:make manifests|après avoir touché aux types de l'api lance make manifests, les crds sont générées
k8s|none_paste||admission webhook "vbackup.kb.io" denied the request: spec.schedule: Invalid value
sec|preference|u/up:cve|quand tu résumes une vuln commence par le cve et les versions touchées
sec|none_hypothetical||imaginons que le secret jwt fuite, on pourrait forger des tokens admin ?
sf|explicit|p/pk:soql|pas de soql dans les boucles, on a explosé les governor limits en prod
sf|correction|p/cf:sfdx|c'est sf maintenant, plus sfdx
cpp|correction|p/cf:std::map|pas de std::map dans le hot path. jamais. prends la flat hash map
cpp|none_complaint||la latence est toujours catastrophique après une mise à jour du noyau
svk|update|p/pk:fly.io|on a migré de vercel à fly.io la semaine dernière
svk|preference|u/up:courtes|réponses courtes stp, je lis le code plus vite que la prose
net|correction|p/cf:ilogger|arrête Console.WriteLine, injecte ILogger<T>
net|none_assistant||tu as dit "j'ai passé le DbContext en AsNoTracking", ok mais t'as lancé les tests ?
hs|preference|u/up:cabal|pour mes projets je préfère cabal à stack
ros|explicit|p/pk:--symlink-install|on build avec colcon build --symlink-install, sinon les nodes python cassent
r|correction|p/cf:renv|passe par renv, pas de install.packages global sur le serveur
r|none_thanks||merci beaucoup, l'appli shiny charge à nouveau
tf|explicit|p/pk:terragrunt|tous les envs sont sous terragrunt, jamais de terraform apply brut dans live/
tf|none_question||pourquoi le plan montre toujours un diff sur la policy iam alors que rien n'a changé ?
spk|correction|p/cf:dataframe|pas de rdd stp, uniquement l'api dataframe
rb|update|p/pk:solid queue|on est passés de sidekiq à solid queue avec rails 8
rb|none_complaint||bundler casse toujours après une montée de version de ruby
el|correction|p/cf:electron-forge|on utilise electron-forge, pas electron-builder
spr|explicit|p/pk:flyway|les changements de base uniquement via des migrations flyway, retiens ça
spr|correction|p/cf:lombok|pas de lombok. la revue sécu de la banque l'a interdit
spr|reference|p/rm:jira|les tickets sont dans jira, projet PAY
tch|explicit|p/pk:python 3.8|les portables de l'école sont encore en python 3.8, donc pas de match
tch|none_quote||énoncé : "Écris une fonction qui renvoie le plus grand de trois nombres."
deno|none_hypothetical||bun serait plus rapide si on enlevait la couche de compat node ?
"""

HAND += r"""
and|none_oneoff||prends le compose bom 2024.06 juste pour ce module, le reste je verrai la semaine pro
and|none_complaint||android studio bouffe toujours 12 go de ram dès que j'ouvre le projet
ios|update|p/pk:spm|on a enfin tué cocoapods, tout est en spm maintenant
ios|none_question||swiftlint est figé sur une version ou brew prend la dernière ?
wp|explicit|p/pk:thème enfant|retiens : on ne touche jamais au thème parent, tout va dans le thème enfant
wp|correction|p/cf:wp_enqueue_script|ne colle pas de balises script dans header.php, utilise wp_enqueue_script
lar|update|p/pk:php 8.3|ce weekend on a passé la prod en php 8.3, les readonly classes sont ok
lar|reference|p/rm:sentry|les erreurs sont dans sentry, projet laravel-api, regarde là d'abord
clim|correction|p/cf:kelvin|non, les températures de ce fichier sont en kelvin, ne les convertis pas comme du celsius
bio|two_facts|p/pk:fastp&p/pk:star|le trimming c'est fastp et l'alignement star
bio|none_thistask||pour ce test prends juste le sous-ensemble chr22, pas le génome complet
go|none_hypothetical||si on passait de grpc à connect, il faudrait régénérer les clients ?
go|update|p/pk:otel|le tracing c'est otel vers tempo maintenant, jaeger a été coupé le mois dernier
vue|correction|p/cf:useasyncdata|pas de onMounted avec axios pour les données de page, utilise useAsyncData
vue|none_question||c'est une règle que les composants aient toujours un nom en PascalCase ?
k8s|preference|u/up:kubectl|donne-moi des commandes kubectl de base, j'ai pas k9s ici
sec|none_oneoff||cherche des clés aws en dur dans le binaire et dis-moi ce que tu trouves
cpp|two_facts|p/pk:catch2&p/pk:conan|les tests c'est catch2 et les deps viennent de conan
svk|none_smalltalk||premier client payant aujourd'hui !!! bon au boulot
net|update|p/pk:minimal apis|les nouveaux endpoints sont en minimal apis, les controllers c'est juste pour la v1
r|preference|u/up:ggplot2|les graphes en ggplot2 avec theme_minimal, je déteste le fond gris
tf|correction|p/cf:for_each|utilise for_each et pas count pour ces buckets
tch|reversal|p/pk:input()|on peut de nouveau utiliser input() dans les exercices, le correcteur envoie stdin
"""

HAND += r"""
and|fact_in_passing|p/pk:detekt|nettoie les warnings du module panier, au fait detekt tourne en ci et casse le build
ios|preference|u/up:pbxproj|quand tu touches project.pbxproj explique-moi ce que t'as changé, je peux pas relire ce fichier
ios|none_complaint||xcode oublie toujours l'équipe de signature après un pull, pénible
wp|update|p/pk:kinsta|le site a déménagé chez kinsta hier, les crons cpanel n'existent plus
wp|none_paste||PHP Warning:  Undefined variable $prix in /wp-content/themes/martin-child/template-parts/carte.php on line 19
lar|explicit|p/pk:pint|lance pint avant chaque commit, preset laravel, retiens-le
lar|none_hypothetical||si on passait à octane, les singletons du service provider fuiraient entre les requêtes ?
clim|update|p/pk:levante|on est sur levante maintenant, mistral a été arrêté
bio|preference|u/up:snakemake|dans les règles snakemake j'aime bien les inputs et outputs nommés
bio|none_quote||le relecteur a écrit : "les auteurs devraient justifier le seuil de FDR"
go|two_facts|p/pk:sqlc&p/pk:goose|les requêtes sont générées avec sqlc et les migrations c'est goose
vue|correction|p/cf:defineprops|plus d'options api dans les nouveaux composants, script setup avec defineProps
lua|explicit|p/pk:modinfo.lua|faut monter la version dans modinfo.lua sinon le workshop refuse l'upload
sec|correction|p/cf:nuclei|écris pas de scanner maison pour ça, prends un template nuclei
cpp|none_question||on aligne toujours les structs d'ordres sur 64 octets ou juste les chauds ?
svk|explicit|p/pk:zod|toutes les form actions valident avec les schémas zod de src/lib/schemas
hs|correction|p/cf:text|utilise Text et pas String pour ce que voit l'utilisateur, je te le redis
ros|none_oneoff||enregistre un bag de /scan et /odom pendant 30 secondes
tf|update|p/pk:opentofu|on est passés à opentofu, c'est tofu plan maintenant
spk|none_thistask||juste pour ce backfill tu peux faire collect() sur le driver, y a peu de données
rb|explicit|p/pk:bin/dev|lance l'appli avec bin/dev, ça démarre aussi les watchers css et js
spr|none_assistant||tu dis "la frontière de transaction est bonne" mais l'insert d'audit est en dehors
tch|correction|p/cf:récursion|pas de récursion dans les exos débutants, ils l'ont pas encore vue
tch|none_smalltalk||les vacances c'est la semaine prochaine, les gamins sont intenables
"""

HAND += r"""
lar|reversal|p/pk:livewire|on revient à livewire pour l'admin, l'expérience inertia est terminée
rb|reversal|p/pk:rspec|rspec est de retour, un mois de minitest et personne ne le supportait
wp|none_thanks||tu me sauves, le client allait m'appeler
tf|none_assistant||t'as écrit "ce changement peut être appliqué sans risque" et il voulait détruire la nat gateway...
k8s|none_complaint||le certificat du webhook expire toujours pile quand je suis en vacances
net|none_question||on enregistre toujours les repositories en scoped ou le cache peut être singleton ?
vue|none_oneoff||prends yarn pour cette install, le vieux repo nuxt 2 a encore un yarn.lock
spr|none_quote||du comité d'architecture : "tout nouveau service doit exposer une spec openapi 3.1"
"""

HAND += r"""
and|none_oneoff||prends l'émulateur pixel 7 pour ce run, mon tel est mort
go|none_quote||mon lead vient d'écrire sur slack : "pas de nouveau service tant que le monolithe n'est pas découpé"
svk|correction|p/cf:$state|on est en svelte 5, utilise $state et $derived, pas l'ancienne syntaxe let et $:
rb|correction|p/cf:update_all|pas de update_all là, ça saute les callbacks et on a besoin du callback d'audit
bio|fact_in_passing|p/pk:novaseq|désolé pour le pavé mais le nouveau lot vient du novaseq, 2x150, les paramètres du miseq sont faux
tch|fact_in_passing|p/pk:cinquième|rends les exos de boucles plus doux, c'est une classe de cinquième
k8s|none_thistask||juste pour cette session de debug passe le log level en debug dans le deployment du manager
el|none_complaint||la signature de code sous windows casse toujours quand le certificat est renouvelé
"""

HAND += r"""
lar|explicit|p/pk:laravel cloud|pour info la prod est sur laravel cloud, plus de forge pour ce client
svk|none_question||les endpoints de l'api ont toujours le préfixe /api/v1 ou seulement les publics ?
wp|correction|p/cf:elementor|me rajoute plus de widgets elementor, le client paie pour du gutenberg pur
and|none_paste||> Task :app:compileDebugKotlin FAILED e: Unresolved reference: hiltViewModel
bio|preference|u/up:français|les commentaires des scripts en français stp, le reste du labo lit pas l'anglais
tf|fact_in_passing|p/pk:sops|regarde le module rds, et au fait les secrets sont chiffrés avec sops dans secrets/
go|none_thanks||nickel, ça compile
clim|none_hypothetical||si on ajoutait la nouvelle paramétrisation des nuages, combien de temps prendrait un run de 100 ans ?
sec|none_oneoff||lance un nmap rapide sur la plage du labo et donne-moi les ports ouverts
rb|update|p/pk:rails 7.2|on est passés en rails 7.2, la branche 7.1 c'est juste pour les patchs
el|none_smalltalk||il fait une chaleur à marseille aujourd'hui, le portable chauffe
spk|correction|p/cf:udf|pas d'udf python pour ça, utilise les fonctions natives de spark
ios|none_thistask||juste pour la démo de demain tu peux mettre l'utilisateur de test en dur
"""

TASKS = r"""
and|none_oneoff||corrige le crash quand on tourne l'écran des réglages
ios|none_oneoff||renomme ProfileView en AccountView partout
wp|none_oneoff||rends le header sticky sur mobile
lar|none_oneoff||ajoute le soft delete au modèle des factures
bio|none_oneoff||ajoute une règle qui compte les reads par échantillon
go|none_oneoff||mets un timeout sur le handler de suivi
vue|none_oneoff||rends la grille tarifaire responsive
cpp|none_oneoff||profile le feed handler et dis-moi les points chauds
net|none_oneoff||ajoute la pagination sur l'endpoint des commandes
tf|none_oneoff||crée une alarme cloudwatch sur la profondeur de la file
rb|none_oneoff||corrige le n+1 dans le controller des commentaires
tch|none_oneoff||écris trois exercices de plus sur les boucles while
"""

FACTS = r"""
and|fact_in_passing|p/pk:minsdk|le minSdk de l'appli est 26
ios|fact_in_passing|p/pk:testflight|les bêtas partent sur testflight le jeudi
lar|fact_in_passing|p/pk:mysql 8|la prod est en mysql 8, pas mariadb
bio|fact_in_passing|p/pk:/scratch|les gros fichiers vont dans /scratch, le home a un quota
go|fact_in_passing|p/pk:go 1.22|tous les services sont en go 1.22
vue|fact_in_passing|p/pk:nuxt 3|tout est en nuxt 3 maintenant
cpp|fact_in_passing|p/pk:bazel|on build avec bazel, le cmake c'est juste pour l'ide
svk|fact_in_passing|p/pk:drizzle|l'orm c'est drizzle
tf|fact_in_passing|p/pk:eu-west-3|tout est dans eu-west-3
rb|fact_in_passing|p/pk:kamal|on déploie avec kamal maintenant
spr|fact_in_passing|p/pk:java 21|on est en java 21 avec spring boot 3.2
tch|fact_in_passing|p/pk:thonny|les élèves utilisent thonny
"""

rows = build("fr", HAND, TASKS, FACTS, [", au fait ", ", btw ", ". pour info : ", ", ah et ", ". fyi "],
             [" et ensuite ", ", après ", ". aussi ", " et "], 220)
write("fr", rows)
