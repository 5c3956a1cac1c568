"""Japanese (casual) written turns (see common.py)."""
# ruff: noqa: E501  (one turn a line: the lines are data)
from common import build, write

HAND = r"""
and|preference|u/up:compose|新しい画面はcomposeで書いてほしい、xmlレイアウトはもう増やしたくない
and|correction|p/cf:ksp|違う、kspね。kaptはもう何ヶ月も前に外したからgradleに戻さないで
and|none_question||viewmodelっていつもfeatureモジュールに置いてたっけ？loginだけだった？
and|none_paste||java.lang.IllegalStateException: ViewModelStore should be set before setGraph call
ios|explicit|p/pk:fastlane match|覚えといて、署名はfastlane matchでやってる。xcodeで手動で証明書作らないで
ios|correction|p/cf:async/await|completion handlerもう書かないで、このプロジェクト全部async/awaitだから
ios|none_thistask||このPRだけはforce unwrapそのままでいいよ、あとで直す
ios|none_hypothetical||もしios 15切ったらobservation使えるよね？
wp|fact_in_passing|p/pk:xserver|問い合わせフォームのスパム直してくれる？ちなみにクライアントのサイトはxserverだからroot無し
wp|preference|u/up:tabs|phpはtabsでインデントしてる、スペースに変えないでね
wp|none_quote||フッターにこれ入れて：「© 2025 さくらベーカリー All rights reserved」
wp|none_thanks||ありがとー、動いた！
lar|explicit|p/pk:sail|全部sail経由だから、php artisanじゃなくてsail artisan migrateね。覚えておいて
lar|correction|p/cf:pest|いや、テストはpestで書いて。phpunitのクラスじゃなくて
lar|none_oneoff||今回はpnpmでフロントの依存入れて、npmがlockfileで詰まってる
clim|preference|u/up:makie|図はplots.jlよりmakieのほうが好き
clim|reference|p/rm:confluence|モデルの説明はグループのconfluenceにあるから、単位わからなかったらそっち見て
clim|none_complaint||金曜はいつもクラスタのキューが地獄、また6時間待ち
bio|explicit|p/pk:mamba|環境はenvironment.ymlからmambaで作ってるから、pipで勝手に入れないでね
bio|correction|p/cf:hg38|ちがうちがう、hg38。パイプライン全部hg38だよ
bio|update|p/pk:slurm|クラスタslurmになったから、sgeのprofileはもう使えない
go|preference|u/up:table-driven|テスト書くならtable-drivenが好み
go|correction|p/cf:errors.is|エラーを==で比較しないで、errors.Is使って
go|none_smalltalk||配送チームがリリース祝いにピザ40枚頼んでて草
go|none_question||repo層っていつもポインタ返してるんだっけ？
vue|explicit|p/pk:pinia|ストアはpiniaね、vuexはもう消した。新しいモジュールでも忘れないで
vue|reversal|p/pk:tailwind|ランディングページはtailwindまたOKになった、クライアントの気が変わった
vue|none_thistask||このLPだけはインラインスタイルでいいよ、使い捨てだし
lua|preference|u/up:local|変数は必ずlocalで宣言して、グローバル漏れるの嫌い
lua|none_question||セーブしたらスクリプト再読み込みされる？毎回再起動いる？
k8s|explicit|p/pk:make manifests|api types触ったらmake manifests回してね、crdは生成物だから
k8s|none_paste||error: unable to recognize "config/samples/backup.yaml": no matches for kind "Backup"
sec|preference|u/up:cve|脆弱性まとめるときはcve番号と影響バージョンから書いて
sec|none_hypothetical||仮にjwtのシークレットが漏れたら、admin tokenって偽造できる？
sf|explicit|p/pk:soql|ループの中でsoql書かないで、前の四半期に本番でgovernor limits踏んだから
sf|correction|p/cf:sfdx|もうsfdxじゃなくてsfね
cpp|correction|p/cf:std::map|ホットパスでstd::mapは絶対ダメ、flat hash map使って
cpp|none_complaint||カーネル上げるといつもレイテンシがひどいことになる
svk|update|p/pk:fly.io|先週vercelからfly.ioに移行した
svk|preference|u/up:短め|返事は短めでお願い、文章よりコード読むほうが速い
net|correction|p/cf:ilogger|Console.WriteLineやめて、ILogger<T>をinjectして
net|none_assistant||「DbContextをAsNoTrackingに変更しました」って言ってたけど、テストは回した？
hs|preference|u/up:cabal|自分のはstackよりcabal派
ros|explicit|p/pk:--symlink-install|ビルドはcolcon build --symlink-installでやってる、じゃないとpythonノード壊れる
r|correction|p/cf:renv|パッケージはrenvで、サーバーでグローバルにinstall.packagesしないで
r|none_thanks||助かった、shinyアプリまた開けた
tf|explicit|p/pk:terragrunt|環境は全部terragrunt経由、live/で素のterraform applyはしないで
tf|none_question||何も変えてないのにplanでいつもiam policyにdiff出るのなんで？
spk|correction|p/cf:dataframe|rddは書かないで、dataframe apiだけで
rb|update|p/pk:solid queue|rails 8に上げたときsidekiqからsolid queueに変えた
rb|none_complaint||rubyのバージョン上げるたびにbundler壊れる、毎回
el|correction|p/cf:electron-forge|electron-builderじゃなくてelectron-forge使ってる
spr|explicit|p/pk:flyway|db変更はflywayのマイグレーションだけ、覚えといて
spr|correction|p/cf:lombok|lombok禁止ね。銀行のセキュリティレビューでダメになった
spr|reference|p/rm:jira|チケットはjiraのPAYプロジェクトにある
tch|explicit|p/pk:python 3.8|学校のパソコンはまだpython 3.8だから、match文は使わないで
tch|none_quote||問題文：「3つの数のうち一番大きいものを返す関数を書きなさい。」
deno|none_hypothetical||nodeの互換レイヤー外したらbunってもっと速くなるのかな
"""

HAND += r"""
and|none_oneoff||このモジュールだけcompose bom 2024.06使って、他は来週やる
and|none_complaint||プロジェクト開いた瞬間android studioがいつもメモリ12g食うんだけど
ios|update|p/pk:spm|やっとcocoapods消した、今は全部spmだからPodfile見つけても無視して
ios|none_question||swiftlintってバージョン固定してたっけ？brewで最新入る感じ？
wp|explicit|p/pk:子テーマ|覚えといて、親テーマは絶対いじらない、全部子テーマに書く
wp|correction|p/cf:wp_enqueue_script|header.phpにscriptタグ直書きしないで、wp_enqueue_script使って
lar|update|p/pk:php 8.3|週末に本番php 8.3に上げたからreadonly class使っていいよ
lar|reference|p/rm:sentry|エラーはsentryのlaravel-apiプロジェクトにあるから先にそっち見て
clim|correction|p/cf:ケルビン|違う、そのファイルの気温はケルビンだから摂氏みたいに変換しないで
bio|two_facts|p/pk:fastp&p/pk:star|トリミングはfastpでアライメントはstarね
bio|none_thistask||今回のテストはchr22のサブセットだけでいい、全ゲノムはいらない
go|none_hypothetical||grpcからconnectに変えたらクライアント再生成いるのかな
go|update|p/pk:otel|トレーシングは今otelでtempoに送ってる、jaegerは先月止めた
vue|correction|p/cf:useasyncdata|ページのデータ取得にonMountedとaxios使わないで、useAsyncDataで
vue|none_question||コンポーネントのファイル名っていつもPascalCaseって決まりだっけ？
k8s|preference|u/up:kubectl|コマンドは素のkubectlで教えて、こっちk9s入ってないから
sec|none_oneoff||バイナリの中にハードコードされたawsキーないかgrepして
cpp|two_facts|p/pk:catch2&p/pk:conan|テストはcatch2で依存はconanから入れてる
svk|none_smalltalk||今日初めての有料ユーザー来た！！！さて仕事戻るか
net|update|p/pk:minimal api|新しいエンドポイントはminimal apiで、controllerはv1だけ
r|preference|u/up:ggplot2|グラフはggplot2でtheme_minimalにして、灰色の背景嫌い
tf|correction|p/cf:for_each|そのbucketはcountじゃなくてfor_eachで書いて
tch|reversal|p/pk:input()|練習問題でまたinput()使っていいことになった、採点がstdin渡すようになったから
"""

HAND += r"""
and|fact_in_passing|p/pk:detekt|カートモジュールの警告片付けて。ちなみにciでdetekt回ってて新しい指摘あるとビルド落ちる
ios|preference|u/up:pbxproj|project.pbxproj触ったら何変えたか説明して、あのファイルはレビューできないから
ios|none_complaint||pullするたびにxcodeが署名チーム忘れるのほんとだるい
wp|update|p/pk:kinsta|サイト昨日kinstaに引っ越した、cpanelのcronはもう無い
wp|none_paste||PHP Warning:  Undefined array key "menu_id" in /wp-content/themes/sakura-child/functions.php on line 131
lar|explicit|p/pk:pint|コミット前に毎回pint回してね、laravelプリセットで
lar|none_hypothetical||octaneにしたらservice providerのシングルトンってリクエスト間で漏れる？
clim|update|p/pk:levante|今はlevante使ってる、mistralは止まった
bio|preference|u/up:snakemake|snakemakeのruleはinputとoutputに名前つけるのが好み
bio|none_quote||査読者のコメント：「FDR閾値の選択根拠を示すべきである」
go|two_facts|p/pk:sqlc&p/pk:goose|クエリはsqlcで生成、マイグレーションはgoose
vue|correction|p/cf:defineprops|新しいコンポーネントでoptions api使わないで、script setupとdefinePropsだけ
lua|explicit|p/pk:modinfo.lua|modinfo.luaのバージョン上げないとワークショップにアップできないから忘れないで
sec|correction|p/cf:nuclei|それ用のスキャナ自作しないで、nucleiのテンプレート使って
cpp|none_question||注文の構造体っていつも64バイトアラインしてる？ホットなやつだけ？
svk|explicit|p/pk:zod|form actionは全部src/lib/schemasのzodスキーマで検証してる
hs|correction|p/cf:text|ユーザーに見せるものはStringじゃなくてTextにして、何回も言ってるけど
ros|none_oneoff||/scanと/odomのbag 30秒録って
tf|update|p/pk:opentofu|opentofuに乗り換えた、今はtofu planね
spk|none_thistask||今回のバックフィルだけはdriverにcollect()していいよ、データ小さいし
rb|explicit|p/pk:bin/dev|アプリはbin/devで起動して、cssとjsのwatcherも一緒に上がるから
spr|none_assistant||「トランザクション境界は正しいです」って言ってたけど監査のinsertが外にあるよ
tch|correction|p/cf:再帰|初級の問題で再帰は使わないで、まだ習ってないから
tch|none_smalltalk||来週から休みで子どもたちもうそわそわしてる
"""

HAND += r"""
lar|reversal|p/pk:livewire|管理画面はlivewireに戻した、inertiaの実験は終わり
rb|reversal|p/pk:rspec|rspec復活、minitest一ヶ月試したけどみんな無理だった
wp|none_thanks||まじ助かった、クライアントから電話来るとこだった
tf|none_assistant||「この変更は安全にapplyできます」って書いてたけどnat gateway消そうとしてたよ…
k8s|none_complaint||webhookの証明書っていつも休暇中に切れるんだよな
net|none_question||リポジトリっていつもscopedで登録してる？キャッシュのはsingletonでもいい？
vue|none_oneoff||このインストールはyarnでやって、古いnuxt 2のリポジトリにまだyarn.lockあるから
spr|none_quote||アーキテクチャ委員会より：「新規サービスはすべてopenapi 3.1仕様を公開すること」
"""

HAND += r"""
and|none_oneoff||今回はpixel 7のエミュで回して、スマホの充電切れた
go|none_quote||リードがslackで「モノリス分割終わるまで新サービス禁止」って言ってる
svk|correction|p/cf:$state|svelte 5だから$stateと$derived使って、昔のletと$:の書き方はやめて
rb|correction|p/cf:update_all|そこでupdate_all使わないで、コールバック飛ばすから。監査ログのコールバック要るんだよ
bio|fact_in_passing|p/pk:novaseq|長文ごめん、新しいバッチはnovaseqの2x150だからmiseqのアダプタ設定は合わない
tch|fact_in_passing|p/pk:中1|ループの問題もっと易しくして、中1の子たちだから
k8s|none_thistask||このデバッグの間だけmanagerのログレベルdebugにして
el|none_complaint||証明書更新するたびにwindowsのコード署名が壊れる
"""

HAND += r"""
lar|explicit|p/pk:laravel cloud|一応、本番はlaravel cloudだからこのクライアントではforgeもう使わない
svk|none_question||apiのエンドポイントっていつも/api/v1つけてる？公開のやつだけ？
wp|correction|p/cf:elementor|elementorのウィジェットもう足さないで、クライアントは素のgutenberg希望だから
and|none_paste||> Task :app:compileDebugKotlin FAILED e: Overload resolution ambiguity
bio|preference|u/up:日本語|スクリプトのコメントは日本語でお願い、ラボの他の人英語読まないから
tf|fact_in_passing|p/pk:sops|rdsのモジュール見て。あ、シークレットはsecrets/にsopsで暗号化してある
go|none_thanks||さんきゅ、ビルド通った
clim|none_hypothetical||新しい雲のパラメタリゼーション入れたら100年ランってどれくらいかかるかな
sec|none_oneoff||ラボのレンジにnmapざっとかけて開いてるポート教えて
rb|update|p/pk:rails 7.2|もうrails 7.2になった、7.1のブランチはパッチだけ
el|none_smalltalk||今日の大阪暑すぎ、ノートpcが熱い
spk|correction|p/cf:udf|それpythonのudfでやらないで、sparkの組み込み関数使って
ios|none_thistask||明日のデモ用だけテストユーザー直書きでいいよ
"""

TASKS = r"""
and|none_oneoff||設定画面を回転したときのクラッシュ直して
ios|none_oneoff||ProfileViewを全部AccountViewにリネームして
wp|none_oneoff||スマホでヘッダー固定にして
lar|none_oneoff||請求書モデルにsoft delete追加して
bio|none_oneoff||サンプルごとのリード数数えるrule足して
go|none_oneoff||追跡ハンドラにタイムアウト入れて
vue|none_oneoff||料金表をレスポンシブにして
cpp|none_oneoff||feed handlerプロファイルしてホットスポット教えて
net|none_oneoff||注文エンドポイントにページング付けて
tf|none_oneoff||キューの深さにcloudwatchアラーム作って
rb|none_oneoff||コメントcontrollerのn+1直して
tch|none_oneoff||whileループの練習問題あと3つ書いて
"""

FACTS = r"""
and|fact_in_passing|p/pk:minsdk|このアプリのminSdkは26
ios|fact_in_passing|p/pk:testflight|ベータは毎週木曜にtestflightに出してる
lar|fact_in_passing|p/pk:mysql 8|本番はmysql 8でmariadbじゃない
bio|fact_in_passing|p/pk:/scratch|でかい中間ファイルは/scratchに置いて、homeはクォータある
go|fact_in_passing|p/pk:go 1.22|全サービスgo 1.22だよ
vue|fact_in_passing|p/pk:nuxt 3|もう全部nuxt 3
cpp|fact_in_passing|p/pk:bazel|ビルドはbazel、cmakeはide用だけ
svk|fact_in_passing|p/pk:drizzle|ormはdrizzle
tf|fact_in_passing|p/pk:ap-northeast-1|リソースは全部ap-northeast-1
rb|fact_in_passing|p/pk:kamal|デプロイは今kamal
spr|fact_in_passing|p/pk:java 21|java 21とspring boot 3.2だよ
tch|fact_in_passing|p/pk:thonny|生徒はthonny使ってる
"""

rows = build("ja", HAND, TASKS, FACTS, ["。ちなみに", "。あ、", "。btw ", "。一応言っとくと", "。fyi "],
             ["。あと", "、それから", "。ついでに", "。その後"], 220)
write("ja", rows)
