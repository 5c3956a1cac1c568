# ruff: noqa: E501 -- template lines are data, one turn each
"""Japanese, Korean, Russian and Italian templates (format: see corpus/en_zh.py)."""

JA = """\
explicit|PK:deploy|覚えておいて、デプロイ先は {deploy} です
explicit|PC:pkg|これからは依存関係のインストールに {pkg} を使って
explicit|PK:db|メモしておいて：本番のデータベースは {db}
explicit|PC:branch|{branch} に直接 push しないでね、今後ずっと
repo_fact|PK:db|うちは全部 {db} を使ってます
repo_fact|PK:test|テストコマンドは {test} です
repo_fact|PK:ver|このサービスは {ver} で動いてる
repo_fact|PK:ci|CI は {ci} です
repo_fact|PK:dir|{dir} 以下は全部自動生成のコード
repo_fact|PK:port|開発サーバーはポート {port} で動きます
standing|PC:test|コミットする前に必ず {test} を実行して
standing|PC:dir|{dir} のファイルは手で編集しないで
standing|PC:ext|{ext} ファイルは絶対にコミットしないこと
standing|PC:lint|PR を出す前に {lint} を通すこと
preference|UP:editor|私は {editor} 派なので、そのショートカットで教えて
preference|UP:tz|私は {tz} にいるので、時間はそれで書いて
preference|UP:=日本語|返事はいつも日本語でお願い
agent_style|UC:=絵文字|回答に絵文字を入れないで
agent_style|UP:=短く|回答は短くお願いします
correction|PC:pkg+pkg2|違う、{pkg2} じゃなくて {pkg} だよ
correction|PC:test|実はテストコマンドは {test} です
correction|PC:db|間違い、データベースは {db2} じゃなくて {db}
update|PK:deploy|共有です、{deploy2} から {deploy} に全部移行しました、{deploy2} はもう使ってない
update|PK:db|先週データベースを {db} に切り替えた
update|PK:pkg|今は {pkg2} の代わりに {pkg} を使ってる
reversal|PK:lib|{lib} はまた使っていいよ
reversal|PK:branch|{branch} への push はまた解禁です
in_passing|PK:deploy|{file} のテストを直して、ちなみにデプロイ先は {deploy} ね
in_passing|PK:db|{func} にキャッシュを追加して、うちのデータベースは {db} だから
in_passing|PK:test|{func} をリファクタして、このリポジトリのテストは {test} で回る
two_facts|PK:pkg,PK:db|{pkg} を使っていて、データベースは {db} です
two_facts|PK:test,PC:dir|テストは {test} で。あと {dir} は絶対触らないで
reference|PR:url|運用手順書は {url} にあります
reference|PR:tracker|バグは {tracker} で管理してます
reference|PR:url|API ドキュメントは {url} を見て
update|PK:pkg|{pkg2} はやめて、今は {pkg} だけ
reversal|PK:lib|{lib} の禁止は解除します
question||このマシンに {pkg} をどうやって入れる？
question||なんで {test} が自分のブランチで落ちるの？
question||新しいサービスは {db} と {db2} どっちがいい？
question||キャッシュが空のとき {func} は何を返す
one_off||{test} を実行して
one_off||{func} を {func2} にリネームして
one_off||{file} のバグを直して
one_off||{func} のユニットテストを追加して
one_off||今このブランチを {deploy} にデプロイして
paste||エラーです：\\nTraceback (most recent call last):\\n  File "{file}", line 42\\nKeyError: 'id'
paste||[2026-03-02 10:11:02] ERROR {func} failed: connection refused
thanks||ありがとう、動いた
thanks||いいね、問題なし
thanks||完璧、マージして
assistant||さっき {pkg} を使うって言ってたね、それで進めて
hypothetical||もし {db} に移ったらマイグレーションが壊れるかな
hypothetical||{deploy} を試してみたらどう？
quote||README にこう書いて：「常に {pkg} を使う」
quote||同僚は {fmt} を使うべきだと言ってるけど、まだ迷ってる
this_task||この PR だけ {lint} をスキップして
this_task||今回だけ手動で {deploy} にデプロイして
this_task||とりあえず {pkg2} を使って、あとで整理する
"""

KO = """\
explicit|PK:deploy|기억해 둬, 우리는 {deploy}에 배포해
explicit|PC:pkg|앞으로 의존성 설치는 {pkg}로 해줘
explicit|PK:db|메모해 둬: 운영 데이터베이스는 {db}야
explicit|PC:branch|{branch}에 절대 직접 push 하지 마
repo_fact|PK:db|우리는 전부 {db}를 써
repo_fact|PK:test|테스트 명령어는 {test}야
repo_fact|PK:ver|이 서비스는 {ver}에서 돌아가
repo_fact|PK:ci|CI는 {ci}를 써
repo_fact|PK:dir|{dir} 아래는 전부 생성된 코드야
repo_fact|PK:port|개발 서버는 {port} 포트에서 떠
standing|PC:test|커밋하기 전에 항상 {test} 돌려
standing|PC:dir|{dir} 파일은 손으로 고치지 마
standing|PC:ext|{ext} 파일은 절대 커밋하지 마
standing|PC:lint|PR 올리기 전에 {lint} 통과해야 해
preference|UP:editor|나는 {editor}를 선호하니까 그 단축키로 알려줘
preference|UP:tz|나는 {tz} 시간대에 있어, 시간은 그걸로 말해줘
preference|UP:=한국어|답은 항상 한국어로 해줘
agent_style|UC:=이모지|답변에 이모지 넣지 마
agent_style|UP:=짧게|답변은 짧게 해줘
correction|PC:pkg+pkg2|아니, {pkg2} 말고 {pkg}야
correction|PC:test|사실 테스트 명령어는 {test}야
correction|PC:db|틀렸어, 데이터베이스는 {db2}가 아니라 {db}야
update|PK:deploy|공지: {deploy2}에서 {deploy}로 전부 옮겼어, {deploy2}는 이제 안 써
update|PK:db|지난주에 데이터베이스를 {db}로 바꿨어
update|PK:pkg|이제 {pkg2} 대신 {pkg}를 써
reversal|PK:lib|{lib} 다시 써도 돼
reversal|PK:branch|이제 {branch}에 다시 push 해도 돼
in_passing|PK:deploy|{file} 테스트 고쳐줘, 참고로 우리는 {deploy}에 배포해
in_passing|PK:db|{func}에 캐시 추가해줘, 우리 데이터베이스는 {db}야
in_passing|PK:test|{func} 리팩터링해줘, 이 저장소는 테스트를 {test}로 돌려
two_facts|PK:pkg,PK:db|우리는 {pkg}를 쓰고 데이터베이스는 {db}야
two_facts|PK:test,PC:dir|테스트는 {test}로 돌려. 그리고 {dir}는 절대 건드리지 마
reference|PR:url|운영 매뉴얼은 {url}에 있어
reference|PR:tracker|버그는 {tracker}에서 관리해
reference|PR:url|API 문서는 {url}에 있어
update|PK:pkg|{pkg2}는 버렸고 이제 {pkg}만 써
reversal|PK:lib|{lib} 다시 허용할게
question||이 머신에 {pkg} 어떻게 설치해?
question||왜 내 브랜치에서 {test}가 실패해?
question||새 서비스에 {db}랑 {db2} 중에 뭐 쓸까?
question||캐시가 비어 있으면 {func}는 뭘 반환해
one_off||{test} 실행해줘
one_off||{func}를 {func2}로 이름 바꿔줘
one_off||{file} 버그 고쳐줘
one_off||{func} 단위 테스트 추가해줘
one_off||지금 이 브랜치 {deploy}에 배포해줘
paste||에러 났어:\\nTraceback (most recent call last):\\n  File "{file}", line 42\\nKeyError: 'id'
paste||[2026-03-02 10:11:02] ERROR {func} failed: connection refused
thanks||고마워, 잘 된다
thanks||좋아, 괜찮네
thanks||완벽해, 머지해줘
assistant||아까 {pkg} 쓴다고 했지, 그대로 진행해
hypothetical||나중에 {db}로 옮기면 마이그레이션 깨질까
hypothetical||{deploy} 한번 써보면 어때?
quote||README에 이렇게 적어줘: "항상 {pkg}를 사용"
quote||동료는 {fmt}를 써야 한대, 아직 모르겠어
this_task||이번 PR만 {lint} 건너뛰어
this_task||이번 한 번만 {deploy}에 수동으로 배포해
this_task||일단 {pkg2} 써, 나중에 정리하자
"""

RU = """\
explicit|PK:deploy|запомни: мы деплоим на {deploy}
explicit|PC:pkg|с этого момента ставь зависимости через {pkg}
explicit|PK:db|имей в виду, прод база это {db}
explicit|PC:branch|никогда не пушь напрямую в {branch}, запомни
repo_fact|PK:db|у нас везде {db}
repo_fact|PK:test|команда для тестов {test}
repo_fact|PK:ver|этот сервис работает на {ver}
repo_fact|PK:ci|CI у нас {ci}
repo_fact|PK:dir|всё в {dir} это сгенерированный код
repo_fact|PK:port|дев сервер слушает порт {port}
standing|PC:test|всегда запускай {test} перед коммитом
standing|PC:dir|не правь файлы в {dir} руками
standing|PC:ext|никогда не коммить файлы {ext}
standing|PC:lint|{lint} должен проходить до открытия PR
preference|UP:editor|я предпочитаю {editor}, давай хоткеи для него
preference|UP:tz|я в {tz}, указывай время в этом поясе
preference|UP:=русском|отвечай мне всегда на русском
agent_style|UC:=эмодзи|хватит вставлять эмодзи в ответы
agent_style|UP:=коротко|отвечай коротко, пожалуйста
correction|PC:pkg+pkg2|нет, это {pkg}, а не {pkg2}
correction|PC:test|на самом деле команда для тестов {test}
correction|PC:db|неправильно, база {db}, не {db2}
update|PK:deploy|к сведению: мы переехали с {deploy2} на {deploy}, {deploy2} больше нет
update|PK:db|на прошлой неделе перевели базу на {db}
update|PK:pkg|теперь используем {pkg} вместо {pkg2}
reversal|PK:lib|{lib} снова можно использовать
reversal|PK:branch|пушить в {branch} снова можно
in_passing|PK:deploy|почини тест в {file}, кстати мы деплоим на {deploy}
in_passing|PK:db|добавь кэш в {func}, база у нас {db}
in_passing|PK:test|отрефактори {func}, тесты тут запускаются через {test}
two_facts|PK:pkg,PK:db|мы используем {pkg}, а база {db}
two_facts|PK:test,PC:dir|тесты гоняем через {test}. и никогда не трогай {dir}
reference|PR:url|ранбук лежит тут: {url}
reference|PR:tracker|баги ведём в {tracker}
reference|PR:url|документация по API на {url}
update|PK:pkg|от {pkg2} отказались, теперь только {pkg}
reversal|PK:lib|ладно, {lib} снова разрешён
question||как поставить {pkg} на эту машину?
question||почему {test} падает в моей ветке?
question||для нового сервиса брать {db} или {db2}?
question||что возвращает {func}, если кэш пустой
one_off||запусти {test}
one_off||переименуй {func} в {func2}
one_off||почини баг в {file}
one_off||добавь юнит-тест для {func}
one_off||задеплой эту ветку на {deploy} сейчас
paste||вот ошибка:\\nTraceback (most recent call last):\\n  File "{file}", line 42\\nKeyError: 'id'
paste||[2026-03-02 10:11:02] ERROR {func} failed: connection refused
thanks||спасибо, работает
thanks||отлично, выглядит норм
thanks||идеально, мержи
assistant||ты сказал, что возьмёшь {pkg}, ок, продолжай
hypothetical||если когда-нибудь перейдём на {db}, миграции сломаются
hypothetical||а что если попробовать {deploy}?
quote||добавь в README: "всегда используй {pkg}"
quote||коллега считает, что надо брать {fmt}, я пока не уверен
this_task||только для этого PR пропусти {lint}
this_task||в этот раз задеплой руками на {deploy}
this_task||пока используй {pkg2}, потом приберём
"""

IT = """\
explicit|PK:deploy|ricordati che facciamo il deploy su {deploy}
explicit|PC:pkg|d'ora in poi usa {pkg} per installare le dipendenze
explicit|PK:db|tieni presente che il database di produzione è {db}
explicit|PC:branch|non fare mai push diretto su {branch}, ricordatelo
repo_fact|PK:db|usiamo {db} per tutto
repo_fact|PK:test|il comando dei test è {test}
repo_fact|PK:ver|questo servizio gira su {ver}
repo_fact|PK:ci|la nostra CI è {ci}
repo_fact|PK:dir|tutto quello che sta in {dir} è codice generato
repo_fact|PK:port|il server di sviluppo ascolta sulla porta {port}
standing|PC:test|lancia sempre {test} prima di fare commit
standing|PC:dir|non modificare a mano i file in {dir}
standing|PC:ext|non committare mai file {ext}
standing|PC:lint|{lint} deve passare prima di aprire una PR
preference|UP:editor|preferisco {editor}, dammi le scorciatoie per quello
preference|UP:tz|sono in {tz}, usa quel fuso orario
preference|UP:=italiano|rispondimi sempre in italiano
agent_style|UC:=emoji|smettila di mettere emoji nelle risposte
agent_style|UP:=brevi|risposte brevi per favore
correction|PC:pkg+pkg2|no, è {pkg}, non {pkg2}
correction|PC:test|in realtà il comando dei test è {test}
correction|PC:db|sbagliato, il database è {db}, non {db2}
update|PK:deploy|avviso: abbiamo spostato tutto da {deploy2} a {deploy}, {deploy2} non c'è più
update|PK:db|la settimana scorsa siamo passati a {db} per il database
update|PK:pkg|adesso usiamo {pkg} invece di {pkg2}
reversal|PK:lib|puoi usare di nuovo {lib}
reversal|PK:branch|si può di nuovo fare push su {branch}
in_passing|PK:deploy|sistema il test in {file}, tra l'altro facciamo il deploy su {deploy}
in_passing|PK:db|aggiungi una cache a {func}, il nostro database è {db}
in_passing|PK:test|fai il refactoring di {func}, qui i test si lanciano con {test}
two_facts|PK:pkg,PK:db|usiamo {pkg} e il database è {db}
two_facts|PK:test,PC:dir|i test girano con {test}. e non toccare mai {dir}
reference|PR:url|il runbook è su {url}
reference|PR:tracker|i bug li tracciamo su {tracker}
reference|PR:url|la documentazione delle API è su {url}
update|PK:pkg|abbiamo abbandonato {pkg2}, ora si usa {pkg}
reversal|PK:lib|va bene, {lib} è di nuovo permesso
repo_fact|PK:db|in questo progetto usiamo {db}
question||come installo {pkg} su questa macchina?
question||perché {test} fallisce sul mio branch?
question||per il nuovo servizio usiamo {db} o {db2}?
question||cosa restituisce {func} quando la cache è vuota
one_off||lancia {test}
one_off||rinomina {func} in {func2}
one_off||correggi il bug in {file}
one_off||aggiungi un test unitario per {func}
one_off||fai il deploy di questo branch su {deploy} adesso
paste||ecco l'errore:\\nTraceback (most recent call last):\\n  File "{file}", line 42\\nKeyError: 'id'
paste||[2026-03-02 10:11:02] ERROR {func} failed: connection refused
thanks||grazie, funziona
thanks||ottimo, mi sembra a posto
thanks||perfetto, fai il merge
assistant||hai detto che avresti usato {pkg}, ok, continua
hypothetical||se un giorno passiamo a {db}, le migrazioni si rompono
hypothetical||e se provassimo {deploy}?
quote||aggiungi questo al README: "usa sempre {pkg}"
quote||il mio collega pensa che dovremmo usare {fmt}, non sono sicuro
this_task||solo per questa PR, salta {lint}
this_task||solo questa volta, fai il deploy a mano su {deploy}
this_task||per ora usa {pkg2}, poi sistemiamo
"""
