"""Korean (casual) written turns (see common.py)."""
# ruff: noqa: E501  (one turn a line: the lines are data)
from common import build, write

HAND = r"""
and|preference|u/up:compose|새 화면은 compose로 짜줘, xml 레이아웃은 더 늘리기 싫어
and|correction|p/cf:ksp|아니 ksp라고. kapt는 몇달 전에 뺐으니까 gradle에 다시 넣지 마
and|none_question||viewmodel은 항상 feature 모듈에 두는 거였나? 로그인만 그랬나
and|none_paste||Duplicate class kotlin.collections.jdk8.CollectionsJDK8Kt found in modules kotlin-stdlib-1.8.0
ios|explicit|p/pk:fastlane match|기억해둬, 서명은 fastlane match로 해. xcode에서 인증서 손으로 만들지 마
ios|correction|p/cf:async/await|completion handler 그만 써, 이 프로젝트 전부 async/await야
ios|none_thistask||이번 PR에서만 force unwrap 그냥 둬도 돼, 나중에 정리할게
ios|none_hypothetical||만약 ios 15 지원 끊으면 observation 쓸 수 있는 거지?
wp|fact_in_passing|p/pk:cafe24|문의 폼 스팸 좀 고쳐줘, 참고로 고객 사이트는 cafe24 호스팅이라 root 없어
wp|preference|u/up:tabs|php는 tabs로 들여쓰기해, 스페이스로 바꾸지 마
wp|none_quote||푸터에 이거 넣어줘: "© 2025 민지네 베이커리 All rights reserved"
wp|none_thanks||고마워 잘 된다!
lar|explicit|p/pk:sail|다 sail로 돌려, php artisan 말고 sail artisan migrate야. 기억해
lar|correction|p/cf:pest|아니 테스트는 pest로 써, phpunit 클래스 말고
lar|none_oneoff||이번엔 pnpm으로 프론트 의존성 설치해줘, npm이 lockfile에서 막혀
clim|preference|u/up:makie|그림은 plots.jl보다 makie가 좋아
clim|reference|p/rm:confluence|모델 설명은 그룹 confluence에 있어, 단위 모르겠으면 거기 봐
clim|none_complaint||금요일마다 클러스터 큐가 항상 최악이야, 또 6시간 대기
bio|explicit|p/pk:mamba|환경은 environment.yml로 mamba로 만들어, pip으로 아무거나 깔지 마
bio|correction|p/cf:hg38|아니아니 hg38. 파이프라인 전부 hg38이야
bio|update|p/pk:slurm|클러스터 slurm으로 바뀌었어, sge profile은 이제 못 써
go|preference|u/up:table-driven|테스트는 table-driven 스타일이 좋아
go|correction|p/cf:errors.is|에러를 ==로 비교하지 말고 errors.Is 써
go|none_smalltalk||ㅋㅋ 배송팀이 릴리즈 기념으로 피자 40판 시켰대
go|none_question||repo 레이어는 항상 포인터 리턴하던가?
vue|explicit|p/pk:pinia|스토어는 pinia야, vuex는 없앴어. 새 모듈에서도 잊지 마
vue|reversal|p/pk:tailwind|랜딩 페이지는 다시 tailwind 써도 돼, 고객이 마음 바꿨어
vue|none_thistask||이 랜딩만 인라인 스타일 괜찮아, 일회용이니까
lua|preference|u/up:local|변수는 무조건 local로 선언해, 전역 새는 거 싫어
lua|none_question||저장하면 스크립트 다시 로드돼? 아님 매번 재시작해야 돼?
k8s|explicit|p/pk:make manifests|api types 건드리면 make manifests 꼭 돌려, crd는 생성되는 거야
k8s|none_paste||Error from server (NotFound): customresourcedefinitions.apiextensions.k8s.io "backups.ops.acme.io" not found
sec|preference|u/up:cve|취약점 요약할 땐 cve 번호랑 영향 버전부터 써줘
sec|none_hypothetical||만약 jwt 시크릿 유출되면 admin 토큰 위조 가능해?
sf|explicit|p/pk:soql|루프 안에서 soql 쓰지 마, 지난 분기에 운영에서 governor limits 터졌어
sf|correction|p/cf:sfdx|이제 sfdx 말고 sf야
cpp|correction|p/cf:std::map|핫패스에 std::map 절대 안 돼, flat hash map 써
cpp|none_complaint||커널 올리면 항상 레이턴시가 엉망이 돼
svk|update|p/pk:fly.io|지난주에 vercel에서 fly.io로 옮겼어
svk|preference|u/up:짧게|답은 짧게 해줘, 글보다 코드가 빨리 읽혀
net|correction|p/cf:ilogger|Console.WriteLine 쓰지 말고 ILogger<T> 주입해
net|none_assistant||"DbContext를 AsNoTracking으로 바꿨습니다"라고 했잖아, 테스트는 돌렸어?
hs|preference|u/up:cabal|내 프로젝트는 stack보다 cabal이 좋아
ros|explicit|p/pk:--symlink-install|빌드는 colcon build --symlink-install로 해, 안 그러면 파이썬 노드 깨져
r|correction|p/cf:renv|패키지는 renv로 관리해, 서버에서 전역 install.packages 하지 마
r|none_thanks||살았다 ㄱㅅ, shiny 앱 다시 열려
tf|explicit|p/pk:terragrunt|환경은 전부 terragrunt로 감싸져 있어, live/에서 그냥 terraform apply 하지 마
tf|none_question||아무것도 안 바꿨는데 plan에 항상 iam policy diff 뜨는 거 왜 그래?
spk|correction|p/cf:dataframe|rdd 코드 쓰지 마, dataframe api만
rb|update|p/pk:solid queue|rails 8 올리면서 sidekiq에서 solid queue로 바꿨어
rb|none_complaint||ruby 버전 올릴 때마다 bundler 깨져, 매번
el|correction|p/cf:electron-forge|electron-builder 말고 electron-forge 써
spr|explicit|p/pk:flyway|db 변경은 flyway 마이그레이션으로만, 기억해둬
spr|correction|p/cf:lombok|lombok 금지야. 은행 보안 리뷰에서 막혔어
spr|reference|p/rm:jira|티켓은 jira PAY 프로젝트에 있어
tch|explicit|p/pk:python 3.8|학교 노트북이 아직 python 3.8이라 match 문 쓰지 마
tch|none_quote||문제: "세 수 중 가장 큰 수를 반환하는 함수를 작성하시오."
deno|none_hypothetical||node 호환 레이어 빼면 bun이 더 빨라지려나
"""

HAND += r"""
and|none_oneoff||이 모듈만 compose bom 2024.06 써줘, 나머지는 다음주에 할게
and|none_complaint||프로젝트 열기만 하면 android studio가 항상 램 12기가 먹어
ios|update|p/pk:spm|드디어 cocoapods 없앴어, 이제 전부 spm이니까 Podfile 보이면 무시해
ios|none_question||swiftlint 버전 고정해놨었나? 아니면 brew로 최신 받아?
wp|explicit|p/pk:자식 테마|기억해, 부모 테마는 절대 건드리지 말고 전부 자식 테마에 넣어
wp|correction|p/cf:wp_enqueue_script|header.php에 script 태그 직접 넣지 말고 wp_enqueue_script 써
lar|update|p/pk:php 8.3|주말에 운영 php 8.3으로 올렸어, readonly class 써도 돼
lar|reference|p/rm:sentry|에러는 sentry laravel-api 프로젝트에 있어, 먼저 거기 봐
clim|correction|p/cf:켈빈|아니 그 파일 온도는 켈빈이야, 섭씨처럼 변환하지 마
bio|two_facts|p/pk:fastp&p/pk:star|트리밍은 fastp고 정렬은 star야
bio|none_thistask||이번 테스트는 chr22 서브셋만 써, 전체 게놈 말고
go|none_hypothetical||grpc에서 connect로 바꾸면 클라이언트 다시 생성해야 돼?
go|update|p/pk:otel|트레이싱은 이제 otel로 tempo에 보내, jaeger는 지난달에 껐어
vue|correction|p/cf:useasyncdata|페이지 데이터는 onMounted랑 axios 말고 useAsyncData 써
vue|none_question||컴포넌트 파일명은 항상 PascalCase로 하는 규칙이었나?
k8s|preference|u/up:kubectl|명령어는 그냥 kubectl로 줘, 여기 k9s 없어
sec|none_oneoff||바이너리에 하드코딩된 aws 키 있는지 찾아봐줘
cpp|two_facts|p/pk:catch2&p/pk:conan|테스트는 catch2고 의존성은 conan에서 받아
svk|none_smalltalk||오늘 첫 유료 고객 생겼다!!! 자 다시 일하자
net|update|p/pk:minimal api|새 엔드포인트는 minimal api로 해, controller는 v1만
r|preference|u/up:ggplot2|그래프는 ggplot2에 theme_minimal로, 회색 배경 싫어
tf|correction|p/cf:for_each|그 버킷들은 count 말고 for_each 써
tch|reversal|p/pk:input()|연습문제에서 input() 다시 써도 돼, 채점기가 이제 stdin 넣어줘
"""

HAND += r"""
and|fact_in_passing|p/pk:detekt|장바구니 모듈 경고 좀 정리해줘, 참고로 ci에서 detekt 돌아서 새 이슈 있으면 빌드 깨져
ios|preference|u/up:pbxproj|project.pbxproj 건드리면 뭐 바꿨는지 설명해줘, 그 파일은 리뷰를 못 해
ios|none_complaint||pull만 하면 xcode가 항상 서명 팀을 까먹어 짜증나
wp|update|p/pk:kinsta|사이트 어제 kinsta로 옮겼어, cpanel cron은 이제 없어
wp|none_paste||PHP Warning:  Undefined array key "option_id" in /wp-content/plugins/minji-booking/booking.php on line 77
lar|explicit|p/pk:pint|커밋 전에 항상 pint 돌려, laravel 프리셋으로
lar|none_hypothetical||octane으로 가면 service provider 싱글톤이 요청 사이에 새려나?
clim|update|p/pk:levante|이제 levante 써, mistral은 꺼졌어
bio|preference|u/up:snakemake|snakemake rule은 input output에 이름 붙이는 게 좋아
bio|none_quote||리뷰어 코멘트: "저자들은 FDR 임계값 선택 근거를 제시해야 한다"
go|two_facts|p/pk:sqlc&p/pk:goose|쿼리는 sqlc로 생성하고 마이그레이션은 goose야
vue|correction|p/cf:defineprops|새 컴포넌트에 options api 쓰지 마, script setup이랑 defineProps만
lua|explicit|p/pk:modinfo.lua|modinfo.lua 버전 올려야 워크샵 업로드 돼, 잊지 마
sec|correction|p/cf:nuclei|그거 스캐너 직접 짜지 말고 nuclei 템플릿 써
cpp|none_question||주문 구조체는 항상 64바이트 정렬해? 핫한 것만?
svk|explicit|p/pk:zod|form action은 전부 src/lib/schemas의 zod 스키마로 검증해
hs|correction|p/cf:text|사용자한테 보이는 건 String 말고 Text 써, 몇 번 말했잖아
ros|none_oneoff||/scan이랑 /odom bag 30초 녹화해줘
tf|update|p/pk:opentofu|opentofu로 갈아탔어, 이제 tofu plan이야
spk|none_thistask||이번 백필만 driver로 collect() 해도 돼, 데이터 작아
rb|explicit|p/pk:bin/dev|앱은 bin/dev로 띄워, css js watcher도 같이 떠
spr|none_assistant||"트랜잭션 경계는 맞습니다"라고 했는데 감사 insert가 밖에 있잖아
tch|correction|p/cf:재귀|초급 문제에 재귀 쓰지 마, 아직 안 배웠어
tch|none_smalltalk||다음 주 방학이라 애들 벌써 들떠 있어
"""

HAND += r"""
lar|reversal|p/pk:livewire|어드민은 다시 livewire로 돌아왔어, inertia 실험은 끝
rb|reversal|p/pk:rspec|rspec 다시 써, minitest 한 달 써봤는데 다들 못 견뎠어
wp|none_thanks||살았다 진짜, 고객한테 전화 올 뻔했어
tf|none_assistant||"이 변경은 안전하게 apply할 수 있습니다"라고 했는데 nat gateway 지우려고 하던데...
k8s|none_complaint||webhook 인증서는 꼭 내가 휴가 갈 때 만료되더라
net|none_question||리포지토리는 항상 scoped로 등록해? 캐시는 singleton 괜찮아?
vue|none_oneoff||이번 설치는 yarn으로 해줘, 옛날 nuxt 2 레포에 아직 yarn.lock 있어
spr|none_quote||아키텍처 위원회: "모든 신규 서비스는 openapi 3.1 명세를 제공해야 한다"
"""

HAND += r"""
and|none_oneoff||이번엔 pixel 7 에뮬로 돌려줘, 폰 배터리 나갔어
go|none_quote||리드가 방금 slack에 "모놀리스 쪼개기 전까지 새 서비스 금지"라고 썼어
svk|correction|p/cf:$state|우리 svelte 5야, $state랑 $derived 써, 옛날 let이랑 $: 문법 말고
rb|correction|p/cf:update_all|거기서 update_all 쓰지 마, 콜백 건너뛰는데 감사 로그 콜백 필요해
bio|fact_in_passing|p/pk:novaseq|길어서 미안한데 새 배치는 novaseq 2x150이라 miseq 어댑터 설정은 안 맞아
tch|fact_in_passing|p/pk:중1|반복문 문제 좀 쉽게 해줘, 중1 애들이야
k8s|none_thistask||이번 디버깅 동안만 manager 로그 레벨 debug로 올려줘
el|none_complaint||인증서 갱신할 때마다 windows 코드 서명이 꼭 깨져
"""

HAND += r"""
lar|explicit|p/pk:laravel cloud|참고로 운영은 laravel cloud야, 이 고객은 이제 forge 안 써
svk|none_question||api 엔드포인트는 항상 /api/v1 붙여? 공개된 것만?
wp|correction|p/cf:elementor|elementor 위젯 더 넣지 마, 고객은 순수 gutenberg 원해
and|none_paste||> Task :app:compileDebugKotlin FAILED e: Val cannot be reassigned
bio|preference|u/up:한국어|스크립트 주석은 한국어로 써줘, 랩 사람들이 영어 잘 안 읽어
tf|fact_in_passing|p/pk:sops|rds 모듈 좀 봐줘, 아 그리고 시크릿은 secrets/에 sops로 암호화돼 있어
go|none_thanks||굿 컴파일 된다
clim|none_hypothetical||새 구름 모수화 넣으면 100년 런 얼마나 걸릴까
sec|none_oneoff||랩 대역에 nmap 빠르게 돌려서 열린 포트 알려줘
rb|update|p/pk:rails 7.2|이제 rails 7.2야, 7.1 브랜치는 패치만 해
el|none_smalltalk||오늘 대구 너무 덥다 노트북 뜨거워
spk|correction|p/cf:udf|그거 python udf로 하지 말고 spark 내장 함수 써
ios|none_thistask||내일 데모용으로만 테스트 유저 하드코딩해도 돼
"""

TASKS = r"""
and|none_oneoff||설정 화면 회전할 때 크래시 나는 거 고쳐줘
ios|none_oneoff||ProfileView를 전부 AccountView로 이름 바꿔줘
wp|none_oneoff||모바일에서 헤더 고정해줘
lar|none_oneoff||인보이스 모델에 soft delete 추가해줘
bio|none_oneoff||샘플별 리드 수 세는 rule 추가해줘
go|none_oneoff||트래킹 핸들러에 타임아웃 넣어줘
vue|none_oneoff||가격표 반응형으로 만들어줘
cpp|none_oneoff||feed handler 프로파일링해서 핫스팟 알려줘
net|none_oneoff||주문 엔드포인트에 페이징 붙여줘
tf|none_oneoff||큐 길이에 cloudwatch 알람 만들어줘
rb|none_oneoff||댓글 controller n+1 고쳐줘
tch|none_oneoff||while 반복문 연습문제 세 개 더 써줘
"""

FACTS = r"""
and|fact_in_passing|p/pk:minsdk|이 앱 minSdk는 26이야
ios|fact_in_passing|p/pk:testflight|베타는 매주 목요일에 testflight로 나가
lar|fact_in_passing|p/pk:mysql 8|운영은 mysql 8이고 mariadb 아니야
bio|fact_in_passing|p/pk:/scratch|큰 중간 파일은 /scratch에 둬, home은 쿼터 있어
go|fact_in_passing|p/pk:go 1.22|서비스 전부 go 1.22야
vue|fact_in_passing|p/pk:nuxt 3|이제 전부 nuxt 3이야
cpp|fact_in_passing|p/pk:bazel|빌드는 bazel이고 cmake는 ide용이야
svk|fact_in_passing|p/pk:drizzle|orm은 drizzle이야
tf|fact_in_passing|p/pk:ap-northeast-2|리소스는 다 ap-northeast-2에 있어
rb|fact_in_passing|p/pk:kamal|배포는 이제 kamal로 해
spr|fact_in_passing|p/pk:java 21|java 21에 spring boot 3.2야
tch|fact_in_passing|p/pk:thonny|학생들은 thonny 써
"""

rows = build("ko", HAND, TASKS, FACTS, [". 참고로 ", ", 아 그리고 ", ". btw ", ". 그리고 ", ". fyi "],
             [" 그 다음에 ", ", 그리고 ", ". 그리고 나서 ", ", 끝나면 "], 220)
write("ko", rows)
