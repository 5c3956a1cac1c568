"""Talk between people about their lives, which a coding agent has nothing to keep from.

The cue words of a memory are words of any conversation: "never give up", "I love the
ocean", "she always makes us smile", "Winning must have been so thrilling", "I'll start
journaling from now on". Said to a coding agent they hold nothing of the work. A statement
is set aside as such when it names something of someone's life (family, pets, hobbies,
food, nature, travel, feelings, a motivational phrase) and nothing of the work: no code,
path or link, no tool, no word of code or of the assistant's answers. "never give up on a
flaky test" names a test and is kept.
"""

from __future__ import annotations

import re

from memcli.extraction.rules.patterns import lazy

_WORK_EN = (
    r"code|coding|codebase|program(?:s|ming)?|functions?|class(?:es)?|methods?|variables?|"
    r"types?|typing|typed|tests?|testing|specs?|fixtures?|mocks?|commits?|branch(?:es)?|prs?|"
    r"pull requests?|merges?|rebase|repos?|repositor(?:y|ies)|projects?|files?|folders?|"
    r"director(?:y|ies)|modules?|packages?|imports?|dependenc(?:y|ies)|deps|librar(?:y|ies)|"
    r"frameworks?|apis?|endpoints?|routes?|servers?|clients?|backend|frontend|databases?|db|"
    r"quer(?:y|ies)|schemas?|migrations?|tables?|columns?|deploy(?:s|ment|ments|ing)?|"
    r"builds?|ci|pipelines?|lint(?:er|ing)?|format(?:ter|ting)?|indent(?:ation)?|tabs|"
    r"spaces|quotes|semicolons|comments?|docstrings?|docs|documentation|readme|logs?|logging|"
    r"errors?|exceptions?|bugs?|debug(?:ging)?|refactor(?:s|ing)?|scripts?|commands?|"
    r"terminal|shell|cli|editor|ide|git|github|gitlab|python|javascript|typescript|rust|"
    r"golang|java|kotlin|swift|sql|html|css|json|yaml|toml|regex|async|await|callbacks?|"
    r"components?|hooks?|props|config(?:uration)?s?|env|environment|secrets?|tokens?|auth|"
    r"cache|caching|containers?|docker|kubernetes|k8s|aws|answers?|responses?|repl(?:y|ies)|"
    r"explanations?|summar(?:y|ies)|bullet points?|output|naming|snake_case|camelcase|"
    r"reviews?|diffs?|patch(?:es)?|releases?|versions?|changelog|issues?|tickets?|"
    r"emojis?|markdown|unit|e2e|staging|prod(?:uction)?|localhost|ports?|keyboard shortcuts?|"
    r"apps?|website|site|pages?|ui|ux|screens?|buttons?|fonts?|assets|images?|binar(?:y|ies)|"
    r"artifacts?|paths?|approach|problems?|tasks?|solutions?|fix(?:es)?|features?|"
    r"implementation|nodes?|rules?|vim|neovim|nvim|emacs|vscode|vs code|sublime|jetbrains|"
    r"intellij|pycharm|returns?|guard clauses|immutab(?:le|ility)|generics|closures|"
    r"recursion|decorators|lambdas|enums?|structs?|interfaces?|traits|macros|iterators|"
    r"generators|promises|reducers|comprehensions|inheritance|composition|abstractions?|"
    r"algorithms?|data structures?|regexes|orms?|sdks?|plugins?|extensions?|snippets?|"
    r"keybindings|dotfiles|monorepos?|microservices?|serverless|graphql|rest|grpc")
_WORK_ZH = (r"代码|测试|提交|分支|函数|变量|文件|目录|仓库|项目|接口|部署|构建|日志|报错|注释|文档|"
            r"依赖|框架|数据库|配置|命令|脚本|格式|缩进|回答|回复|中文|英文|版本|发布|编码|程序|"
            r"开发|类型|组件|模块|服务|环境|发版|上线|合并|推送|审查|需求|功能|页面|数据|终端|"
            r"编辑器|工具|安装|升级|缓存|重构|调试|错误|异常|方案|问题|任务")
_WORK_RE = lazy(r"\b(?:" + _WORK_EN + r")\b|" + _WORK_ZH + r"|[`/\\]|\w\.\w|\ue000", re.I)

_LIFE_EN = (
    # the people of someone's life
    r"famil(?:y|ies)|fam|kids?|son|daughter|mom|mum|dad|mother|father|wife|"
    r"husband|boyfriend|girlfriend|sister|brother|siblings|cousins?|grandma|grandpa|"
    r"grandparents|friends?|buddies|fans|neighbou?rs|neighbou?rhood|"
    # pets, hobbies, food, nature, travel
    r"dogs?|pups?|puppy|puppies|kitty|kittens?|pets?|hiking|hikes?|camping|surfing|"
    r"yoga|painting|paintings|art|artwork|dance|dances|dancing|dancers?|music|songs?|piano|"
    r"guitar|singing|concerts?|movies?|films?|novels?|books?|sneakers?|jerseys?|"
    r"baking|cooking|recipes?|kitchen|desserts?|food|seafood|chocolate|snacks?|meals?|"
    r"dinner|nature|sunsets?|sunrise|ocean|beach|mountains?|garden|flowers?|scenery|"
    r"(?:road|camping|fishing|family)\s+trips?|travel(?:l?ing)?|vacations?|cities|"
    # feelings and the life they are about
    r"dreams?|passion|journey|self-(?:acceptance|discovery|belief|expression|care|love|esteem|"
    r"confidence|improvement|doubt)|smiles?|laugh(?:s|ing)?|happ(?:y|ier|iness)|"
    r"heart|hugs?|proud|stoked|thrilled|cheer(?:s|ing)?(?:\s+(?:me|you|us|them)\s+on)?|"
    r"destress|de-stress|relax(?:ing)?|recharge|(?:your|my|our)\s+goals|the little things|"
    r"small moments")
# Phrases of encouragement: what one friend tells another.
_CHEERING_EN = (
    r"give\s+up|quit\s*$|quit\s+on|say\s+never|believe\s+in\s+yourself|you(?:'ve)?\s+got\s+this|"
    r"keep\s+(?:on\s+)?(?:going|pushing|it\s+up|chasing|shining|smiling)|"
    r"stay(?:ing)?\s+(?:positive|strong|motivated)|hang\s+in\s+there|rock\s+on|"
    r"what\s+(?:you\s+love|makes\s+you\s+happy)|you(?:'re|\s+are)\s+(?:doing\s+great|stronger)")
_LIFE_ZH = (r"爬山|周末|家人|家里|孩子|朋友|猫|狗|宠物|旅行|旅游|电影|音乐|跳舞|梦想|放弃|加油|"
            r"空气|开心|快乐|心情|美食|做饭|妈妈|爸爸|老婆|老公|女朋友|男朋友|生活|假期")
_LIFE_RE = lazy(r"\b(?:" + _LIFE_EN + r")\b|\b(?:" + _CHEERING_EN + r")|" + _LIFE_ZH, re.I)

# "Winning must have been so thrilling", "you must be so stoked", "having pets must be a
# wonderful experience": a guess at how something feels, not a rule.
_FEELINGS = (r"(?:wonderful|amazing|awesome|rewarding|frustrating|thrilling|exhilarating|"
             r"exciting|exhausting|fun|tough|great|nice|cool|lovely|stressful|scary|sad|lonely|"
             r"proud|stoked|thrilled|excited|happy|tired|relieved|incredible|fantastic|terrible|"
             r"awful|painful|hard|heartbreaking|inspiring|magical|beautiful|gorgeous|cute|"
             r"delicious|relaxing|fulfilling|satisfying|nerve-wracking)")
GUESSED_FEELING = (
    r"(?:have\s+been|had\s+been)\b"
    r"|(?:be|feel)\s+(?:so|such|really|very|pretty|quite|super|totally|incredibly|"
    r"absolutely)\b"
    r"|(?:be|feel)\s+(?:(?:a|an)\s+(?:\w+\s+)?)?" + _FEELINGS + r"\b")

# "I'll start journaling from now on": what the speaker means to do, not what the assistant
# is to do ("going forward we'll use conventional commits" is the team's convention).
_OWN_PLAN_RE = lazy(
    r"^(?:(?:but|and|so)\s+)?i(?:'ll|\s+will|'m\s+going\s+to|\s+am\s+going\s+to|'m\s+gonna|"
    r"\s+might|\s+may)\b"
    r"|^(?:there's|there\s+is)\s+(?:\w+\s+)?a\s+chance\b", re.I)
_OWN_PLAN_RE.needs = ("i", "there")


def about_life(plain: str) -> str:
    """The word of someone's life a statement names, when it names nothing of the work
    ("" otherwise)."""
    found = _LIFE_RE.search(plain)
    if found is None or _WORK_RE.search(plain):
        return ""
    return found.group(0)


def names_the_work(plain: str) -> bool:
    """Whether a statement names code, a path, a link, a tool's work or the answers."""
    return bool(_WORK_RE.search(plain))


def own_plan(text: str) -> bool:
    """Whether a statement is what the speaker means to do ("I'll …", "we're going to …")."""
    return bool(_OWN_PLAN_RE.match(text))


def is_gerund(word: str) -> bool:
    """ "staying", "creating": a verb's -ing form, not "bring" or "string"."""
    word = word.lower()
    return len(word) > 5 and word.endswith("ing") and word not in ("string", "spring")


_SUBJECT_RE = lazy(
    r"^(?:(?:i|i'm|i'll|i've|i'd|we'll|we're|we've|we'd|you|you're|you've|you'll|he|he's|she|"
    r"she's|they|they're|they've|it|it's|there's|that's|(?:my|his|her|their|your)\s+\w+)\b"
    r"|(?P<ing>\w+ing)\s+(?:\S+\s+){0,4}?(?:is|are|was|were|has|have|\w+s)\b)", re.I)


def has_subject(clause: str) -> bool:
    """Whether a clause opens with who does something ("they brighten our day", "having
    that support encourages me"): an "and always …" after it goes on describing them
    ("… and always make us smile"), it tells the assistant nothing."""
    found = _SUBJECT_RE.match(clause)
    return found is not None and (found.group("ing") is None or is_gerund(found.group("ing")))
