# ruff: noqa: E501 -- template lines are data, one turn each
"""Spanish, Portuguese, German and French templates (format: see corpus/en_zh.py)."""

ES = """\
explicit|PK:deploy|recuerda que desplegamos en {deploy}
explicit|PC:pkg|a partir de ahora usa {pkg} para instalar dependencias
explicit|PK:db|ten en cuenta que la base de datos de producción es {db}
explicit|PC:branch|para el futuro: nunca hagas push directo a {branch}
repo_fact|PK:db|usamos {db} para todo
repo_fact|PK:test|el comando de tests es {test}
repo_fact|PK:ver|este servicio corre en {ver}
repo_fact|PK:ci|el CI es {ci}
repo_fact|PK:dir|todo lo que está en {dir} es código generado
repo_fact|PK:port|el servidor de desarrollo escucha en el puerto {port}
standing|PC:test|siempre ejecuta {test} antes de hacer commit
standing|PC:dir|no edites a mano los archivos de {dir}
standing|PC:ext|nunca subas archivos {ext} al repo
standing|PC:lint|{lint} tiene que pasar antes de abrir un PR
preference|UP:editor|prefiero {editor}, dame los atajos para eso
preference|UP:tz|estoy en {tz}, usa esa zona horaria
preference|UP:=español|contéstame siempre en español
agent_style|UC:=emoji|deja de poner emoji en las respuestas
agent_style|UP:=cortas|respuestas cortas por favor, sin rollo
correction|PC:pkg+pkg2|no, es {pkg}, no {pkg2}
correction|PC:test|en realidad el comando de tests es {test}
correction|PC:db|te equivocas, la base de datos es {db}, no {db2}
update|PK:deploy|ojo, nos mudamos de {deploy2} a {deploy}, ya no usamos {deploy2}
update|PK:db|cambiamos la base de datos a {db} la semana pasada
update|PK:pkg|ahora usamos {pkg} en vez de {pkg2}
reversal|PK:lib|ya puedes volver a usar {lib}
reversal|PK:branch|se puede hacer push a {branch} otra vez
in_passing|PK:deploy|arregla el test de {file}, por cierto desplegamos en {deploy}
in_passing|PK:db|añade caché a {func}, ojo que la base de datos es {db}
in_passing|PK:test|refactoriza {func}, aquí los tests se corren con {test}
two_facts|PK:pkg,PK:db|usamos {pkg} y la base de datos es {db}
two_facts|PK:test,PC:dir|los tests van con {test}. y nunca toques {dir}
reference|PR:url|el runbook está en {url}
reference|PR:tracker|los bugs se registran en {tracker}
reference|PR:url|la documentación de la API está en {url}
update|PK:pkg|dejamos {pkg2}, ahora todo va con {pkg}
reversal|PK:lib|vale, {lib} vuelve a estar permitido
question||¿cómo instalo {pkg} en esta máquina?
question||¿por qué falla {test} en mi rama?
question||¿usamos {db} o {db2} para el servicio nuevo?
question||qué devuelve {func} cuando la caché está vacía
one_off||ejecuta {test}
one_off||renombra {func} a {func2}
one_off||arregla el bug de {file}
one_off||añade un test unitario para {func}
one_off||despliega esta rama en {deploy} ahora
paste||este es el error:\\nTraceback (most recent call last):\\n  File "{file}", line 42\\nKeyError: 'id'
paste||[2026-03-02 10:11:02] ERROR {func} failed: connection refused
thanks||gracias, ya funciona
thanks||genial, me parece bien
thanks||perfecto, haz el merge
assistant||dijiste que ibas a usar {pkg}, vale, sigue
hypothetical||si algún día pasamos a {db}, las migraciones se romperían
hypothetical||¿y si probamos {deploy}?
quote||añade esto al README: "usa siempre {pkg}"
quote||mi compañero cree que deberíamos usar {fmt}, no lo tengo claro
this_task||solo para este PR, sáltate {lint}
this_task||por esta vez despliega a mano en {deploy}
this_task||de momento usa {pkg2}, luego lo limpiamos
"""

PT = """\
explicit|PK:deploy|lembra que a gente faz deploy no {deploy}
explicit|PC:pkg|de agora em diante usa {pkg} pra instalar as dependências
explicit|PK:db|anota aí: o banco de produção é {db}
explicit|PC:branch|nunca faça push direto na {branch}, guarda isso
repo_fact|PK:db|a gente usa {db} pra tudo
repo_fact|PK:test|o comando de testes é {test}
repo_fact|PK:ver|esse serviço roda em {ver}
repo_fact|PK:ci|nosso CI é o {ci}
repo_fact|PK:dir|tudo em {dir} é código gerado
repo_fact|PK:port|o servidor de dev roda na porta {port}
standing|PC:test|sempre rode {test} antes de commitar
standing|PC:dir|não edite os arquivos de {dir} na mão
standing|PC:ext|nunca commite arquivos {ext}
standing|PC:lint|o {lint} precisa passar antes de abrir PR
preference|UP:editor|eu prefiro {editor}, me passa os atalhos dele
preference|UP:tz|estou no fuso {tz}, usa esse horário
preference|UP:=português|me responde sempre em português
agent_style|UC:=emoji|para de colocar emoji nas respostas
agent_style|UP:=curtas|respostas curtas, por favor
correction|PC:pkg+pkg2|não, é {pkg}, não {pkg2}
correction|PC:test|na verdade o comando de testes é {test}
correction|PC:db|errado, o banco é {db}, não {db2}
update|PK:deploy|atenção, a gente migrou tudo do {deploy2} pro {deploy}, o {deploy2} já era
update|PK:db|trocamos o banco pra {db} semana passada
update|PK:pkg|agora usamos {pkg} no lugar do {pkg2}
reversal|PK:lib|pode voltar a usar {lib}
reversal|PK:branch|já pode fazer push na {branch} de novo
in_passing|PK:deploy|conserta o teste em {file}, aliás o deploy é no {deploy}
in_passing|PK:db|coloca cache no {func}, lembrando que o banco é {db}
in_passing|PK:test|refatora {func}, aqui os testes rodam com {test}
two_facts|PK:pkg,PK:db|usamos {pkg} e o banco é {db}
two_facts|PK:test,PC:dir|os testes rodam com {test}. e nunca mexa em {dir}
reference|PR:url|o runbook fica em {url}
reference|PR:tracker|os bugs ficam no {tracker}
reference|PR:url|a doc da API está em {url}
update|PK:pkg|largamos o {pkg2}, agora é só {pkg}
reversal|PK:lib|beleza, {lib} está liberado de novo
question||como instalo o {pkg} nessa máquina?
question||por que o {test} está falhando na minha branch?
question||usamos {db} ou {db2} no serviço novo?
question||o que {func} retorna quando o cache está vazio
one_off||roda o {test}
one_off||renomeia {func} pra {func2}
one_off||corrige o bug em {file}
one_off||adiciona um teste unitário pro {func}
one_off||faz o deploy dessa branch no {deploy} agora
paste||deu esse erro:\\nTraceback (most recent call last):\\n  File "{file}", line 42\\nKeyError: 'id'
paste||[2026-03-02 10:11:02] ERROR {func} failed: connection refused
thanks||valeu, funcionou
thanks||show, ficou bom
thanks||perfeito, pode fazer o merge
assistant||você disse que ia usar {pkg}, beleza, segue
hypothetical||se um dia a gente for pro {db}, as migrations quebram
hypothetical||e se a gente testasse o {deploy}?
quote||coloca isso no README: "sempre use {pkg}"
quote||meu colega acha que devíamos usar {fmt}, não sei ainda
this_task||só nesse PR, pula o {lint}
this_task||só dessa vez, faz o deploy na mão no {deploy}
this_task||por enquanto usa {pkg2}, depois a gente arruma
"""

DE = """\
explicit|PK:deploy|merk dir: wir deployen auf {deploy}
explicit|PC:pkg|ab jetzt bitte immer {pkg} für Installationen
explicit|PK:db|zur Info für später: die Produktionsdatenbank ist {db}
explicit|PC:branch|niemals direkt auf {branch} pushen, merk dir das
repo_fact|PK:db|wir nutzen {db} für alles
repo_fact|PK:test|der Testbefehl ist {test}
repo_fact|PK:ver|der Dienst läuft auf {ver}
repo_fact|PK:ci|unser CI ist {ci}
repo_fact|PK:dir|alles unter {dir} ist generierter Code
repo_fact|PK:port|der Dev-Server läuft auf Port {port}
standing|PC:test|führ immer {test} aus, bevor du committest
standing|PC:dir|bearbeite die Dateien in {dir} nicht von Hand
standing|PC:ext|committe niemals {ext} Dateien
standing|PC:lint|{lint} muss grün sein, bevor ein PR aufgemacht wird
preference|UP:editor|ich arbeite lieber mit {editor}, gib mir die Shortcuts dafür
preference|UP:tz|ich bin in {tz}, nimm diese Zeitzone
preference|UP:=deutsch|antworte mir bitte immer auf deutsch
agent_style|UC:=emoji|hör auf, emoji in die Antworten zu packen
agent_style|UP:=kurz|halte die Antworten kurz
correction|PC:pkg+pkg2|nein, es ist {pkg}, nicht {pkg2}
correction|PC:test|eigentlich ist der Testbefehl {test}
correction|PC:db|falsch, die Datenbank ist {db}, nicht {db2}
update|PK:deploy|kurze Info: wir sind von {deploy2} zu {deploy} umgezogen, {deploy2} ist weg
update|PK:db|wir haben die Datenbank letzte Woche auf {db} umgestellt
update|PK:pkg|wir nehmen jetzt {pkg} statt {pkg2}
reversal|PK:lib|du darfst {lib} wieder benutzen
reversal|PK:branch|pushen auf {branch} ist wieder erlaubt
in_passing|PK:deploy|fix den Test in {file}, übrigens deployen wir auf {deploy}
in_passing|PK:db|bau einen Cache in {func} ein, unsere Datenbank ist übrigens {db}
in_passing|PK:test|refactor {func}, die Tests laufen hier mit {test}
two_facts|PK:pkg,PK:db|wir nutzen {pkg} und die Datenbank ist {db}
two_facts|PK:test,PC:dir|Tests laufen mit {test}. und fass {dir} nie an
reference|PR:url|das Runbook liegt unter {url}
reference|PR:tracker|Bugs tracken wir in {tracker}
reference|PR:url|die API-Doku ist unter {url}
update|PK:pkg|{pkg2} ist raus, wir nehmen nur noch {pkg}
reversal|PK:lib|okay, {lib} ist wieder erlaubt
question||wie installiere ich {pkg} auf dieser Maschine?
question||warum schlägt {test} auf meinem Branch fehl?
question||sollen wir {db} oder {db2} für den neuen Dienst nehmen?
question||was gibt {func} zurück, wenn der Cache leer ist
one_off||führ {test} aus
one_off||benenne {func} in {func2} um
one_off||behebe den Bug in {file}
one_off||schreib einen Unit-Test für {func}
one_off||deploy diesen Branch jetzt auf {deploy}
paste||hier der Fehler:\\nTraceback (most recent call last):\\n  File "{file}", line 42\\nKeyError: 'id'
paste||[2026-03-02 10:11:02] ERROR {func} failed: connection refused
thanks||danke, klappt
thanks||super, sieht gut aus
thanks||perfekt, merge das
assistant||du hast gesagt, du nimmst {pkg}, okay, mach weiter
hypothetical||falls wir mal auf {db} wechseln, brechen die Migrationen
hypothetical||was wäre, wenn wir {deploy} ausprobieren?
quote||schreib das in die README: "immer {pkg} verwenden"
quote||mein Kollege meint, wir sollten {fmt} nehmen, bin unsicher
this_task||nur für diesen PR: {lint} überspringen
this_task||dieses eine Mal von Hand auf {deploy} deployen
this_task||nimm vorerst {pkg2}, das räumen wir später auf
"""

FR = """\
explicit|PK:deploy|retiens qu'on déploie sur {deploy}
explicit|PC:pkg|à partir de maintenant utilise {pkg} pour installer les dépendances
explicit|PK:db|note bien : la base de prod c'est {db}
explicit|PC:branch|ne pousse jamais directement sur {branch}, retiens-le
repo_fact|PK:db|on utilise {db} pour tout
repo_fact|PK:test|la commande de test c'est {test}
repo_fact|PK:ver|ce service tourne sous {ver}
repo_fact|PK:ci|notre CI c'est {ci}
repo_fact|PK:dir|tout ce qui est dans {dir} est du code généré
repo_fact|PK:port|le serveur de dev écoute sur le port {port}
standing|PC:test|lance toujours {test} avant de committer
standing|PC:dir|ne modifie pas les fichiers de {dir} à la main
standing|PC:ext|ne commite jamais de fichiers {ext}
standing|PC:lint|{lint} doit passer avant d'ouvrir une PR
preference|UP:editor|je préfère {editor}, donne-moi les raccourcis pour ça
preference|UP:tz|je suis en {tz}, utilise ce fuseau
preference|UP:=français|réponds-moi toujours en français
agent_style|UC:=emoji|arrête de mettre des emoji dans tes réponses
agent_style|UP:=courtes|des réponses courtes s'il te plaît
correction|PC:pkg+pkg2|non, c'est {pkg}, pas {pkg2}
correction|PC:test|en fait la commande de test c'est {test}
correction|PC:db|faux, la base c'est {db}, pas {db2}
update|PK:deploy|pour info on a tout migré de {deploy2} vers {deploy}, {deploy2} c'est fini
update|PK:db|on est passés à {db} la semaine dernière pour la base
update|PK:pkg|on utilise {pkg} maintenant au lieu de {pkg2}
reversal|PK:lib|tu peux de nouveau utiliser {lib}
reversal|PK:branch|c'est bon, on peut de nouveau pousser sur {branch}
in_passing|PK:deploy|corrige le test dans {file}, au fait on déploie sur {deploy}
in_passing|PK:db|ajoute un cache à {func}, sachant que la base c'est {db}
in_passing|PK:test|refactorise {func}, ici les tests se lancent avec {test}
two_facts|PK:pkg,PK:db|on utilise {pkg} et la base c'est {db}
two_facts|PK:test,PC:dir|les tests passent par {test}. et ne touche jamais à {dir}
reference|PR:url|le runbook est sur {url}
reference|PR:tracker|les bugs sont suivis dans {tracker}
reference|PR:url|la doc de l'API est sur {url}
update|PK:pkg|on a lâché {pkg2}, maintenant c'est {pkg}
reversal|PK:lib|ok, {lib} est de nouveau autorisé
question||comment j'installe {pkg} sur cette machine ?
question||pourquoi {test} échoue sur ma branche ?
question||on prend {db} ou {db2} pour le nouveau service ?
question||que renvoie {func} quand le cache est vide
one_off||lance {test}
one_off||renomme {func} en {func2}
one_off||corrige le bug dans {file}
one_off||ajoute un test unitaire pour {func}
one_off||déploie cette branche sur {deploy} maintenant
paste||voilà l'erreur :\\nTraceback (most recent call last):\\n  File "{file}", line 42\\nKeyError: 'id'
paste||[2026-03-02 10:11:02] ERROR {func} failed: connection refused
thanks||merci, ça marche
thanks||super, ça me va
thanks||parfait, merge
assistant||tu as dit que tu utiliserais {pkg}, ok, continue
hypothetical||si un jour on passe à {db}, les migrations casseraient
hypothetical||et si on essayait {deploy} ?
quote||ajoute ça au README : "toujours utiliser {pkg}"
quote||mon collègue pense qu'on devrait prendre {fmt}, je ne sais pas
this_task||juste pour cette PR, saute {lint}
this_task||pour cette fois, déploie à la main sur {deploy}
this_task||pour l'instant utilise {pkg2}, on nettoiera après
"""
