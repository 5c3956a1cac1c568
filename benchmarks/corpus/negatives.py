"""More turns with nothing lasting, per language: one-off requests that look like rules
(an imperative about this code, now), complaints, "always"/"never" said of what happens,
small talk. Format: see corpus/en_zh.py."""

NEG = {
    "en": """\
one_off||write the tests for {func}
one_off||implement the export feature in {file}
one_off||sort the imports in {file}
one_off||add type hints to the functions below
one_off||use {pkg} to install the dependencies now
one_off||do not run this command, just show it to me
one_off||wrap these lines at 80 characters
one_off||split the commit into two and push them to {branch}
one_off||use camelCase for the variables in the file I sent
one_off||don't touch {file} in this change
one_off||try it with {ver} and see if it passes
complaint||it never compiles the first time
complaint||{test} always takes forever
complaint||ugh, {pkg} never finds the right version
complaint||you keep forgetting the import, come on
negative_cue||the tests always pass locally but fail on {ci}
negative_cue||{deploy} never showed the logs properly for me
negative_cue||we used {lib} once, years ago
chitchat||my cat just walked over the keyboard lol
chitchat||long day, coffee time
""",
    "zh": """\
one_off||给 {func} 写测试
one_off||在 {file} 里实现导出功能
one_off||把 {file} 的 import 排一下序
one_off||给下面这些函数加类型注解
one_off||现在用 {pkg} 装一下依赖
one_off||别执行这个命令，给我看看就行
one_off||这次改动不要碰 {file}
one_off||用 {ver} 试试能不能过
complaint||每次第一次编译都失败
complaint||{test} 总是跑得特别慢
complaint||{pkg} 老是找不到对的版本，烦死了
negative_cue||测试在本地总是能过，到 {ci} 上就挂
negative_cue||我们很多年前用过一次 {lib}
chitchat||今天好累，先喝杯咖啡
""",
    "es": """\
one_off||escribe los tests de {func}
one_off||implementa la exportación en {file}
one_off||ordena los imports de {file}
one_off||usa {pkg} para instalar las dependencias ahora
one_off||no ejecutes este comando, solo enséñamelo
one_off||no toques {file} en este cambio
one_off||prueba con {ver} a ver si pasa
complaint||nunca compila a la primera
complaint||{test} siempre tarda una eternidad
complaint||{pkg} nunca encuentra la versión correcta, qué pesadez
negative_cue||los tests siempre pasan en local pero fallan en {ci}
negative_cue||usamos {lib} una vez hace años
chitchat||qué día tan largo, voy a por un café
""",
    "pt": """\
one_off||escreve os testes do {func}
one_off||implementa a exportação em {file}
one_off||ordena os imports de {file}
one_off||usa o {pkg} pra instalar as dependências agora
one_off||não roda esse comando, só me mostra
one_off||não mexe em {file} nessa mudança
one_off||testa com {ver} pra ver se passa
complaint||nunca compila de primeira
complaint||o {test} sempre demora uma eternidade
complaint||o {pkg} nunca acha a versão certa, que saco
negative_cue||os testes sempre passam local mas falham no {ci}
negative_cue||a gente usou {lib} uma vez, anos atrás
chitchat||dia longo, hora do café
""",
    "de": """\
one_off||schreib die Tests für {func}
one_off||implementier den Export in {file}
one_off||sortier die Imports in {file}
one_off||nimm {pkg}, um die Abhängigkeiten jetzt zu installieren
one_off||führ den Befehl nicht aus, zeig ihn mir nur
one_off||fass {file} in dieser Änderung nicht an
one_off||probier es mit {ver} und schau, ob es durchläuft
complaint||es kompiliert nie beim ersten Mal
complaint||{test} dauert immer ewig
complaint||{pkg} findet nie die richtige Version, nervig
negative_cue||die Tests laufen lokal immer durch, aber auf {ci} nicht
negative_cue||wir haben {lib} vor Jahren mal benutzt
chitchat||langer Tag, Zeit für einen Kaffee
""",
    "fr": """\
one_off||écris les tests de {func}
one_off||implémente l'export dans {file}
one_off||trie les imports de {file}
one_off||utilise {pkg} pour installer les dépendances maintenant
one_off||n'exécute pas cette commande, montre-la-moi seulement
one_off||ne touche pas à {file} dans ce changement
one_off||essaie avec {ver} pour voir si ça passe
complaint||ça ne compile jamais du premier coup
complaint||{test} prend toujours une éternité
complaint||{pkg} ne trouve jamais la bonne version, pénible
negative_cue||les tests passent toujours en local mais échouent sur {ci}
negative_cue||on a utilisé {lib} une fois il y a des années
chitchat||longue journée, pause café
""",
    "ja": """\
one_off||{func} のテストを書いて
one_off||{file} にエクスポート機能を実装して
one_off||{file} の import を並べ替えて
one_off||今 {pkg} で依存関係をインストールして
one_off||このコマンドは実行しないで、見せるだけでいい
one_off||今回の変更では {file} に触らないで
one_off||{ver} で試して通るか見て
complaint||一回目のビルドはいつも失敗する
complaint||{test} はいつもめちゃくちゃ遅い
complaint||{pkg} がいつも正しいバージョンを見つけられない、面倒
negative_cue||テストはローカルでは必ず通るのに {ci} で落ちる
negative_cue||{lib} は何年も前に一度使ったことがある
chitchat||長い一日だった、コーヒー飲もう
""",
    "ko": """\
one_off||{func} 테스트 작성해줘
one_off||{file}에 내보내기 기능 구현해줘
one_off||{file} import 정렬해줘
one_off||지금 {pkg}로 의존성 설치해줘
one_off||이 명령은 실행하지 말고 보여주기만 해
one_off||이번 변경에서는 {file} 건드리지 마
one_off||{ver}로 돌려보고 통과하는지 봐줘
complaint||처음 빌드는 항상 실패해
complaint||{test}는 항상 너무 오래 걸려
complaint||{pkg}는 맨날 맞는 버전을 못 찾아, 짜증나
negative_cue||테스트가 로컬에선 항상 통과하는데 {ci}에서는 실패해
negative_cue||{lib}는 몇 년 전에 한 번 써봤어
chitchat||긴 하루였다, 커피 한잔 해야지
""",
    "ru": """\
one_off||напиши тесты для {func}
one_off||реализуй экспорт в {file}
one_off||отсортируй импорты в {file}
one_off||поставь зависимости через {pkg} сейчас
one_off||не запускай эту команду, просто покажи её
one_off||не трогай {file} в этом изменении
one_off||попробуй на {ver}, посмотрим, пройдёт ли
complaint||с первого раза никогда не компилируется
complaint||{test} всегда идёт целую вечность
complaint||{pkg} вечно не находит нужную версию, бесит
negative_cue||тесты локально всегда проходят, а на {ci} падают
negative_cue||мы когда-то давно один раз пробовали {lib}
chitchat||длинный день, пора за кофе
""",
    "it": """\
one_off||scrivi i test per {func}
one_off||implementa l'esportazione in {file}
one_off||ordina gli import in {file}
one_off||usa {pkg} per installare le dipendenze adesso
one_off||non eseguire questo comando, fammelo solo vedere
one_off||non toccare {file} in questa modifica
one_off||prova con {ver} e vedi se passa
complaint||non compila mai al primo colpo
complaint||{test} ci mette sempre un'eternità
complaint||{pkg} non trova mai la versione giusta, che noia
negative_cue||i test passano sempre in locale ma falliscono su {ci}
negative_cue||abbiamo usato {lib} una volta, anni fa
chitchat||giornata lunga, pausa caffè
""",
}
