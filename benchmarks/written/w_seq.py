"""Written sequences (train/written_sequences.jsonl): 2-4 turns, mostly a fact then its
# ruff: noqa: E501  (one turn a line: the lines are data)
correction, update or reversal, in the ten languages. One block per sequence:
``lang name topic=kw,kw`` then turns ``topic> text`` (``-> text`` for a turn of no topic)."""

import json
from pathlib import Path

OUT = (
    Path(__file__).resolve().parents[1]
    / "data"
    / "extraction"
    / "train"
    / "written_sequences.jsonl"
)

SEQ = r"""
en android-di t=hilt,koin
t> we use koin for di in the android app
-> ok cool, now add the settings screen
t> actually scratch that, we migrated to hilt last sprint, koin is only in the old module

en ios-deploy t=fastlane,xcode cloud
t> release builds go out via fastlane lanes on the mac mini
t> update: we dropped fastlane, xcode cloud does the releases now

en lar-queue t=redis,sqs
t> queues use redis in prod
-> thanks
t> no wait, prod queues are on sqs, redis is only local

en go-broker t=kafka,nats
t> shipment events go through kafka
t> fyi kafka is gone, everything moved to nats jetstream
-> can you update the consumer then

en k8s-ns t=namespace
t> the operator always runs in the ops-system namespace
t> correction, it's platform-operators namespace now, ops-system was renamed

en tf-state t=s3,terraform cloud
t> terraform state is in an s3 bucket with dynamodb locking
-> run a plan for staging
t> heads up we moved state to terraform cloud yesterday, the s3 backend is read only

en rb-css t=tailwind,bootstrap
t> no tailwind in this app, we use bootstrap
t> ok we allow tailwind again, the redesign uses it

en svk-db t=supabase,neon
t> db is supabase postgres
t> we switched to neon, supabase project is being deleted

en tch-ver t=python 3.8,python 3.11
t> school laptops are on python 3.8
-> great thanks
t> good news, it got upgraded to python 3.11 over the holidays so match is fine now

en cpp-compiler t=gcc,clang
t> we build with gcc 12 for prod
t> no, clang 17. gcc was only for the old gateway

en spr-lombok t=lombok
t> no lombok anywhere
-> got it
t> security lifted the ban, lombok is allowed again for dtos

en r-pkg t=renv,pak
t> use renv for packages on the server
t> we replaced renv with pak, dont touch the renv.lock anymore

zh go-broker t=kafka,nats
t> 运单事件走kafka
t> 更新一下 kafka已经下线了 全部迁到nats了

zh ios-deploy t=fastlane,xcode cloud
t> 发版用fastlane
-> 好的谢谢
t> 不对 现在用xcode cloud发版了 fastlane不用了

zh vue-store t=vuex,pinia
t> 状态管理用vuex
t> 我们已经换成pinia了 vuex删了

zh tf-region t=ap-southeast-1,ap-east-1
t> 资源都在ap-southeast-1
t> 纠正一下 是ap-east-1 新加坡那个是旧账号

zh bio-ref t=hg19,hg38
t> 参考基因组用hg19
-> 帮我跑一下比对
t> 说错了 是hg38 hg19是以前实验室的

zh spr-lombok t=lombok
t> 不许用lombok
t> 安全审查放开了 lombok又可以用了

zh and-di t=koin,hilt
t> 依赖注入用koin
t> 上个迭代已经迁到hilt了

zh lua-ver t=luajit,lua 5.4
t> 引擎里嵌的是luajit
t> 新版引擎换成lua 5.4了 可以用整数除法了
"""

LANGS = r"""
es go-broker t=kafka,nats
t> los eventos de envios van por kafka
t> ojo, kafka ya no, todo se movio a nats

es ios-deploy t=fastlane,xcode cloud
t> las releases salen con fastlane
-> gracias
t> no, ahora es xcode cloud, fastlane lo quitamos

es vue-store t=vuex,pinia
t> el store es vuex
t> lo cambiamos a pinia, vuex esta borrado

es bio-ref t=hg19,hg38
t> el genoma de referencia es hg19
t> me equivoque, es hg38

es spr-lombok t=lombok
t> nada de lombok
t> seguridad lo permitio otra vez, lombok vuelve a estar ok

es tf-state t=s3,terraform cloud
t> el state de terraform esta en s3
t> lo movimos a terraform cloud ayer

pt go-broker t=kafka,nats
t> os eventos de entrega vao pelo kafka
t> atualizando: kafka morreu, agora é tudo nats

pt ios-deploy t=fastlane,xcode cloud
t> o release sai pelo fastlane
t> nao, agora é xcode cloud

pt vue-store t=vuex,pinia
t> o store é vuex
-> valeu
t> trocamos pra pinia, vuex foi removido

pt bio-ref t=hg19,hg38
t> a referencia é hg19
t> foi mal, é hg38

pt spr-lombok t=lombok
t> proibido lombok
t> liberaram o lombok de novo

pt tf-state t=s3,terraform cloud
t> o state do terraform fica no s3
t> mudamos o state pro terraform cloud

de go-broker t=kafka,nats
t> die sendungsevents laufen über kafka
t> update: kafka ist weg, alles läuft jetzt über nats

de ios-deploy t=fastlane,xcode cloud
t> releases machen wir mit fastlane
t> nein, inzwischen über xcode cloud

de vue-store t=vuex,pinia
t> der store ist vuex
t> haben auf pinia umgestellt, vuex ist raus

de bio-ref t=hg19,hg38
t> referenzgenom ist hg19
-> ok
t> sorry, falsch, es ist hg38

de spr-lombok t=lombok
t> kein lombok
t> lombok ist wieder erlaubt, security hat es freigegeben

de tf-state t=s3,terraform cloud
t> der terraform state liegt in s3
t> state ist jetzt in terraform cloud

fr go-broker t=kafka,nats
t> les événements de livraison passent par kafka
t> mise à jour : plus de kafka, tout est sur nats

fr ios-deploy t=fastlane,xcode cloud
t> les releases partent avec fastlane
t> non, maintenant c'est xcode cloud

fr vue-store t=vuex,pinia
t> le store c'est vuex
t> on est passés à pinia, vuex est supprimé

fr bio-ref t=hg19,hg38
t> le génome de référence c'est hg19
t> pardon je me suis trompé, c'est hg38

fr spr-lombok t=lombok
t> pas de lombok
-> ok merci
t> lombok est de nouveau autorisé

fr tf-state t=s3,terraform cloud
t> le state terraform est dans s3
t> on a déplacé le state vers terraform cloud

ja go-broker t=kafka,nats
t> 配送イベントはkafka経由
t> 更新、kafkaはもう廃止で全部natsになった

ja ios-deploy t=fastlane,xcode cloud
t> リリースはfastlaneでやってる
t> 違う、今はxcode cloudでリリースしてる

ja vue-store t=vuex,pinia
t> ストアはvuex
t> piniaに移行したからvuexはもう消した

ja bio-ref t=hg19,hg38
t> 参照ゲノムはhg19
-> ありがと
t> ごめん間違えた、hg38だった

ja spr-lombok t=lombok
t> lombok禁止
t> lombokまた使っていいことになった

ja tf-state t=s3,terraform cloud
t> terraformのstateはs3に置いてる
t> stateはterraform cloudに移した

ko go-broker t=kafka,nats
t> 배송 이벤트는 kafka로 보내
t> 업데이트: kafka 없어졌고 이제 전부 nats야

ko ios-deploy t=fastlane,xcode cloud
t> 릴리즈는 fastlane으로 해
t> 아니 이제 xcode cloud로 릴리즈해

ko vue-store t=vuex,pinia
t> 스토어는 vuex야
t> pinia로 바꿨어 vuex는 지웠어

ko bio-ref t=hg19,hg38
t> 참조 게놈은 hg19야
t> 미안 잘못 말했어 hg38이야

ko spr-lombok t=lombok
t> lombok 쓰지 마
-> 알겠어
t> lombok 다시 써도 돼, 보안팀이 풀어줬어

ko tf-state t=s3,terraform cloud
t> terraform state는 s3에 있어
t> state는 terraform cloud로 옮겼어

ru go-broker t=kafka,nats
t> события доставки идут через kafka
t> обновление: kafka выпилили, теперь все через nats

ru ios-deploy t=fastlane,xcode cloud
t> релизы выкатываем через fastlane
t> нет, теперь через xcode cloud

ru vue-store t=vuex,pinia
t> стор у нас vuex
t> переехали на pinia, vuex удален

ru bio-ref t=hg19,hg38
t> референс hg19
t> ошибся, hg38

ru spr-lombok t=lombok
t> lombok нельзя
-> понял
t> lombok снова можно, безопасники разрешили

ru tf-state t=s3,terraform cloud
t> state терраформа лежит в s3
t> state перенесли в terraform cloud

it go-broker t=kafka,nats
t> gli eventi delle spedizioni passano da kafka
t> aggiornamento: kafka non c'è più, ora è tutto su nats

it ios-deploy t=fastlane,xcode cloud
t> le release le facciamo con fastlane
t> no, adesso con xcode cloud

it vue-store t=vuex,pinia
t> lo store è vuex
t> siamo passati a pinia, vuex è stato tolto

it bio-ref t=hg19,hg38
t> il genoma di riferimento è hg19
t> scusa, sbagliato, è hg38

it spr-lombok t=lombok
t> niente lombok
-> ok grazie
t> lombok di nuovo permesso, la sicurezza l'ha sbloccato

it tf-state t=s3,terraform cloud
t> lo state di terraform sta su s3
t> abbiamo spostato lo state su terraform cloud
"""

out = []
for block in (SEQ + "\n" + LANGS).strip().split("\n\n"):
    lines = block.strip().splitlines()
    lang, name, topic = lines[0].split(" ", 2)
    tname, kws = topic.split("=")
    turns = []
    for ln in lines[1:]:
        mark, text = ln.split("> ", 1)
        turns.append({"text": text, "topic": None if mark == "-" else tname})
    out.append(
        {
            "id": f"seq-written-{lang}-{name}",
            "topics": {tname: kws.split(",")},
            "turns": turns,
            "split": "written",
            "source": "written (training)",
            "lang": lang,
        }
    )
OUT.write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in out), encoding="utf-8")
print(len(out))
