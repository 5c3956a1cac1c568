"""What a change statement and a stored note must share to be about one thing, when no
setting and no value of one kind joins them: a subject, not a word.

One shared word made one subject: "la rama main está protegida" was rewritten by "el
código va en la rama develop; main ya no se usa" through "rama" (an everyday Spanish
word), and "テストセットは tests/fixtures にあります" by "変更セットは廃止です" through three
pairs of kana ("セッ", "ット", "トは"). A subject is:

- a *name* both hold whole (a token, never inside a longer one: "lua" is not "luajit")
  that is not an everyday word of work in a language written in Latin letters ("rama",
  "commit", "tabla", "Datei": slot_words.COMMON_WORDS has the English ones);
- or content words, at least two and a third of the shorter text's (as
  :func:`.changed_values.shared_words`), with Chinese and Japanese read as words, not as
  pairs of characters across them: a katakana run is one word, and no pair spans a
  particle, a script boundary or a Chinese character of grammar (的, 了, 是 ...).
"""

from __future__ import annotations

from memcli import compiled_regex as rx
from memcli.extraction.rules.changed_values import content_words, shared_between
from memcli.extraction.rules.slot_words import CAPITALISED
from memcli.extraction.rules.slots import opens_as_verb, shared_names

# Everyday words of work that are no subject on their own, beyond slot_words.COMMON_WORDS
# (English): the things every project has, in the languages written in Latin letters (a
# name is ASCII, memcli.extraction.rules.slots.salient_names: "código" is none already).
_EVERYDAY_WORDS = """
commit commits merge merges review reviews release releases pipeline pipelines script
scripts log logs image images table tables query queries bucket buckets cluster clusters
ticket tickets issue issues change changes demo demos meeting meetings week weeks day days
rule rules note notes page pages user users client clients customer customers request
requests error errors bug bugs fix fixes feature features sprint sprints team teams key
keys password passwords screen screens module modules component components environment
environments production development database databases document documents
rama ramas base datos tabla tablas servidor servidores servicio servicios archivo archivos
fichero ficheros carpeta carpetas prueba pruebas despliegue proyecto proyectos codigo
equipo semana cliente clientes usuario usuarios clave pagina pantalla imagen registro
registros errores regla reglas nota notas documento entorno produccion desarrollo modulo
paquete paquetes libreria biblioteca
ramo ramos banco dados tabela tabelas servico arquivo arquivos pasta pastas teste testes
versao projeto equipe semana usuario senha chave tela imagem erro erros regra regras
ambiente producao
branche branches donnees serveur serveurs fichier fichiers dossier dossiers projet equipe
semaine jour utilisateur utilisateurs cle page ecran erreur erreurs regle environnement
rami tabella tabelle servizio servizi cartella cartelle rilascio versione progetto codice
squadra settimana giorno utente utenti chiave pagina schermo immagine dati errore errori
regola regole ambiente produzione sviluppo modulo pacchetto
zweig datenbank tabelle tabellen dienst datei dateien ordner verzeichnis projekt
konfiguration woche kunde kunden nutzer benutzer passwort seite bild daten fehler regel
regeln notiz dokument umgebung produktion entwicklung modul paket
"""
_EVERYDAY = frozenset(_EVERYDAY_WORDS.split())
_CAPITALISED_LOWER = frozenset(word.casefold() for word in CAPITALISED)
_KATAKANA_RE = rx.compile(r"[\u30a0-\u30ff\uff66-\uff9f]+")
_CJK_PAIR_RE = rx.compile(r"[\u3040-\u30ff\u3400-\u9fff]{2}")
_HAN_RE = rx.compile(r"[\u3400-\u9fff]+")
# Chinese characters of grammar, not of a subject: a pair holding one spans two words.
_FUNCTION_HAN = frozenset("的了是在不也又都就把被吧呢吗啊呀还再我你他她它们这那")


def subject_in_common(mine: str, theirs: str) -> bool:
    """Whether MINE (a statement worded as a change) and THEIRS (a stored note) are about
    one thing: a name both hold whole that is not an everyday word, or content words."""
    names = shared_names(mine, theirs) - _EVERYDAY
    # A tool that is an English word ("Render", "Express") opening a sentence before its
    # object is the verb ("Render the docs with mkdocs"), not the tool.
    names -= {word for word in names & _CAPITALISED_LOWER
              if opens_as_verb(mine, word) or opens_as_verb(theirs, word)}
    return bool(names) or shared_content(mine, theirs) > 0


def shared_content(a: str, b: str) -> int:
    """How many content words A and B share when they are about one thing, else 0 (at
    least two, a third of the shorter's), Chinese and Japanese read as words."""
    return shared_between(_words(a), _words(b))


def _words(text: str) -> frozenset[str]:
    # content_words' own, but its pairs of Chinese or Japanese characters (a Latin word
    # glued to them stays whole: "api端口")
    latin = {w for w in content_words(text) if not _CJK_PAIR_RE.fullmatch(w)}
    folded = text.casefold()
    latin.update(run for run in _KATAKANA_RE.findall(folded) if len(run) >= 2)
    for run in _HAN_RE.findall(folded):
        latin.update(run[i:i + 2] for i in range(len(run) - 1)
                     if not _FUNCTION_HAN & set(run[i:i + 2]))
    return frozenset(latin)
