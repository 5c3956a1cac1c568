"""Provider tokens recognised by their published prefix and shape.

One row per format: the prefix a provider stamps on its credentials, the shape of the rest,
and the kind reported. The formats are the ones public secret-scanning catalogues list
(gitleaks' rules, detect-secrets' plugins), rewritten here: each row is a literal-led regex
with possessive runs, so it is linear, and each runs only when its prefix (its gate) is in
the text, which one pass of the prefilter (:mod:`memcli.safety.redact._gates`) tells for all rows.

A row with ``context`` runs only when that word (lower case) is in the text too: its prefix
alone ("SK", "key-") is too common to trust.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from memcli.safety.redact._base import _IDENT, _starts_token

_A = "[A-Za-z0-9]"
_U = "[A-Za-z0-9_-]"
_H = "[a-f0-9]"


class _Format(NamedTuple):
    """One published token format: prefix, shape of the rest, and the kind reported."""

    kind: str
    # A fixed-width regex the token starts with (it is also the lookbehind of the boundary).
    prefix: str
    body: str
    gates: tuple[str, ...]
    # Characters that may not follow the token (a longer run is some other thing).
    tail: str = "A-Za-z0-9_-"
    context: str = ""
    # Characters that may not precede the prefix.
    before: str = _IDENT


def _f(kind: str, prefix: str, body: str, gate: str | tuple[str, ...] | None = None,
       **kw: str) -> _Format:
    gates = (gate,) if isinstance(gate, str) else gate or (re.sub(r"\\(.)", r"\1", prefix),)
    return _Format(kind, prefix, body, gates, **kw)


FORMATS: tuple[_Format, ...] = (
    _f("huggingface-token", "hf_", "[A-Za-z]{34}"),
    _f("huggingface-token", "api_org_", "[A-Za-z]{34}"),
    _f("npm-token", "npm_", _A + "{36}"),
    _f("pypi-token", "pypi-AgEIcHlwaS5vcmc", _U + "{50,1000}+"),
    _f("pypi-token", "pypi-AgENdGVzdC5weXBpLm9yZw", _U + "{50,1000}+"),
    # Personal, deploy, runner, trigger, feed, mail, agent, OAuth, job, SCIM, feature flags.
    _f("gitlab-token", "glpat-", _U + r"{20,300}+(?:\.[0-9a-z]{9})?"),
    _f("gitlab-token", "glrt-", r"(?:t[0-9]_)?" + _U + r"{20,300}+(?:\.[0-9a-z]{9})?"),
    _f("gitlab-token", "gldt-", _U + "{20,64}+"),
    _f("gitlab-token", "glptt-", _H + "{40}"),
    _f("gitlab-token", "glft-", _U + "{20,64}+"),
    _f("gitlab-token", "glimt-", _U + "{25}"),
    _f("gitlab-token", "glagent-", _U + "{50,64}+"),
    _f("gitlab-token", "gloas-", _U + "{64}"),
    _f("gitlab-token", "glcbt-", "[0-9a-zA-Z]{1,5}+_" + _U + "{20}"),
    _f("gitlab-token", "glsoat-", _U + "{20,64}+"),
    _f("gitlab-token", "glffct-", _U + "{20,64}+"),
    _f("gitlab-token", "GR1348941", _U + "{20}"),
    _f("sendgrid-key", r"SG\.", _U + r"{22}\." + _U + "{43}"),
    _f("brevo-key", "xkeysib-", _H + "{64}-" + _A + "{16}"),
    _f("mailgun-key", "key-", _H + "{32}", context="mailgun"),
    _f("twilio-key", "SK", "[0-9a-fA-F]{32}", context="twilio"),
    _f("azure-storage-key", "AccountKey=", "[A-Za-z0-9+/]{86}==", tail="A-Za-z0-9+/=",
       before=""),
    _f("azure-storage-key", "SharedAccessKey=", "[A-Za-z0-9+/]{42,44}+=", tail="A-Za-z0-9+/=",
       before=""),
    _f("digitalocean-token", "do[opr]_v1_", _H + "{64}", ("dop_v1_", "doo_v1_", "dor_v1_")),
    # Slack's configuration tokens: "xoxe." before a user or bot token.
    _f("slack-token", r"xoxe\.xox[bp]-", "1-" + _A + "{50,300}+", "xoxe."),
    _f("google-oauth", "GOCSPX-", _U + "{28}"),
    _f("google-oauth", r"ya29\.", _U + "{30,2048}+"),
    _f("stripe-key", "whsec_", _A + "{32,64}+"),
    _f("shopify-token", "shp(?:at|ca|pa|ss)_", _H + "{32}", ("shpat_", "shpca_", "shppa_",
                                                            "shpss_")),
    _f("databricks-token", "dapi", _H + "{32}(?:-[0-9])?"),
    _f("doppler-token", r"dp\.(?:pt|st|sa|ct)\.", _A + "{40,44}+", "dp."),
    _f("pulumi-token", "pul-", _H + "{40}"),
    _f("postman-key", "PMAK-", _H + "{24}-" + _H + "{34}"),
    _f("linear-key", "lin_api_", _A + "{40}"),
    _f("grafana-token", "glsa_", _A + "{32}_[A-Fa-f0-9]{8}"),
    _f("grafana-token", "glc_", "[A-Za-z0-9+/]{32,400}+={0,2}+", tail="A-Za-z0-9+/=_-"),
    _f("vault-token", r"hv[sbr]\.", _U + "{90,400}+", ("hvs.", "hvb.", "hvr.")),
    _f("terraform-token", r"\.atlasv1\.", "[A-Za-z0-9_=-]{60,70}+", before=""),
    _f("age-key", "AGE-SECRET-KEY-1", "[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    _f("sentry-token", "sntry[su]_", "[A-Za-z0-9+/=_-]{40,400}+", ("sntrys_", "sntryu_")),
    _f("newrelic-key", "NRAK-", "[A-Z0-9]{27}"),
    _f("dynatrace-token", r"dt0c01\.", "[A-Z0-9]{24}\\.[A-Z0-9]{64}"),
    _f("atlassian-token", "ATATT3", "[A-Za-z0-9_=-]{150,250}+"),
    _f("heroku-key", "HRKU-AA", _U + "{58}"),
    _f("flyio-token", "fo1_", _U + "{43}"),
    _f("flyio-token", "fm2_", "[A-Za-z0-9+/=_-]{100,}+"),
    _f("planetscale-token", "pscale_tkn_", "[A-Za-z0-9=._-]{32,64}+"),
    _f("planetscale-token", "pscale_pw_", "[A-Za-z0-9=._-]{32,64}+"),
    _f("planetscale-token", "pscale_oauth_", "[A-Za-z0-9=._-]{32,64}+"),
    _f("supabase-token", "sbp_", _H + "{40}"),
    _f("square-token", "sq0atp-", _U + "{22}"),
    _f("square-token", "sq0csp-", _U + "{43}"),
    _f("square-token", "EAAA", _U + "{60}"),
    _f("facebook-token", "EAACEdEose0cBA", _A + "{20,300}+"),
    _f("shippo-token", "shippo_(?:live|test)_", _H + "{40}", "shippo_"),
    _f("easypost-key", "EZ[AT]K", _A + "{54}", ("EZAK", "EZTK")),
    _f("dropbox-token", r"sl\.", "[A-Za-z0-9._-]{130,1400}+"),
    _f("groq-key", "gsk_", _A + "{52}"),
    _f("replicate-token", "r8_", _A + "{37}"),
    _f("xai-key", "xai-", _A + "{80}"),
    _f("perplexity-key", "pplx-", _A + "{48}"),
    _f("langsmith-key", "lsv2_(?:pt|sk)_", _H + "{32}_" + _H + "{10}", "lsv2_"),
    _f("openrouter-key", "sk-or-v1-", _H + "{64}"),
    _f("twitter-token", "AAAAAAAAAAAAAAAAAAAAA", "[A-Za-z0-9%]{50,120}+"),
    _f("mapbox-token", r"sk\.eyJ", _U + r"{50,}+\." + _U + "{20,}+", "sk.eyJ"),
    _f("tailscale-key", "tskey-", "(?:api|auth|client|scim|webhook)-" + _A + "{6,20}+-"
       + _A + "{16,64}+"),
    _f("notion-token", "ntn_", "[0-9]{11}" + _A + "{35}"),
    _f("notion-token", "secret_", _A + "{43}"),
    _f("airtable-token", "pat", _A + r"{14}\." + _H + "{64}"),
    _f("contentful-token", "CFPAT-", _U + "{43}"),
    _f("figma-token", "figd_", _U + "{40}"),
    _f("docker-token", "dckr_(?:pat|oat)_", _U + "{27}", ("dckr_pat_", "dckr_oat_")),
    _f("bitbucket-token", "ATBB", "[A-Za-z0-9_=.-]{28,40}+"),
    _f("jfrog-token", "AKCp", _A + "{69}"),
    _f("jfrog-token", "cmVmdGtuOjAxOj", _A + "{50,}+"),
    _f("octopus-key", "API-", "[A-Z0-9]{26}"),
    _f("prefect-token", "pnu_", _A + "{36}"),
    _f("readme-key", "rdme_", "[a-z0-9]{70}"),
    _f("rubygems-key", "rubygems_", _H + "{48}"),
    _f("clojars-token", "CLOJARS_", "[a-z0-9]{60}"),
    _f("scalingo-token", "tk-us-", _U + "{48}"),
    _f("typeform-token", "tfp_", "[A-Za-z0-9_=-]{59}"),
    _f("sonar-token", "sq[pua]_", _H + "{40}", ("sqp_", "squ_", "sqa_")),
    _f("hubspot-token", "pat-(?:na|eu)1-",
       _H + "{8}-" + _H + "{4}-" + _H + "{4}-" + _H + "{4}-" + _H + "{12}", "pat-"),
    _f("onepassword-token", "ops_eyJ", "[A-Za-z0-9+/=_-]{250,}+"),
    _f("onepassword-key", "A3-", "[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})"
       "-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}"),
    _f("cloudflare-key", r"v1\.0-", _H + "{24}-" + _H + "{146}", "v1.0-"),
    _f("adafruit-key", "aio_", _A + "{28}"),
    _f("frameio-token", "fio-u-", _U + "{64}"),
    _f("duffel-token", "duffel_(?:test|live)_", _U + "{43}", "duffel_"),
    _f("nuget-key", "oy2", "[a-z0-9]{43}"),
    _f("harness-token", r"pat\.", _U + r"{22}\." + _H + r"{24}\." + _A + "{20}", "pat."),
    _f("infracost-key", "ico-", _A + "{32}"),
    _f("openshift-token", "sha256~", _U + "{43}"),
    _f("flutterwave-key", "FLWSECK_TEST-", "[a-h0-9]{32}-X"),
    _f("flutterwave-key", "FLWSECK-", "[a-h0-9]{32}-X"),
    # Issue 25: rows of gitleaks' catalogue that were missing here.
    _f("adobe-client-secret", "p8e-", _A + "{32}"),
    _f("alibaba-key", "LTAI", _A + "{20}"),
    _f("aws-bedrock-key", "ABSK", "[A-Za-z0-9+/]{109,269}+={0,2}+", tail="A-Za-z0-9+/="),
    _f("sourcegraph-token", "sgp_", "(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}"),
    _f("settlemint-token", "sm_[aps]at_", _A + "{16}", ("sm_aat_", "sm_pat_", "sm_sat_")),
    _f("intra42-secret", "s-s4t2(?:ud|af)-", _H + "{64}", ("s-s4t2ud-", "s-s4t2af-")),
    _f("flyio-token", "fm1[ar]_", "[A-Za-z0-9+/=_-]{100,}+", ("fm1a_", "fm1r_")),
    _f("gitlab-session", "_gitlab_session=", "[0-9a-z]{32}", before=""),
)

KINDS: tuple[str, ...] = tuple(dict.fromkeys(f.kind for f in FORMATS))

# Tokens built around a separator rather than a prefix; each row is (kind, gate, pattern,
# group, context word) and the pattern carries its own boundaries.
SHAPED: tuple[tuple[str, str, str, str, str], ...] = (
    # Azure AD client secrets: three characters, a digit, "Q~", then 31-34 more.
    ("azure-client-secret", "Q~",
     r"(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}+(?![A-Za-z0-9_~.-])",
     "", ""),
    ("telegram-token", ":AA",
     r"(?<![0-9])[0-9]{8,10}+:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])", "", ""),
    ("discord-webhook", "/api/webhooks/",
     r"/api/webhooks/[0-9]{17,20}+(?:\\?/)(?P<v>[A-Za-z0-9_-]{60,68}+)", "v", ""),
    ("teams-webhook", "webhook.office.com",
     r"webhook\.office\.com(?:\\?/)webhookb2(?:\\?/)(?P<v>[A-Za-z0-9@/\\-]{40,400}+)", "v", ""),
    ("mailchimp-key", "-us",
     r"(?<![A-Za-z0-9])[a-f0-9]{32}-us[0-9]{1,2}+(?![A-Za-z0-9])", "", "mailchimp"),
)
SHAPED_KINDS = tuple(dict.fromkeys(kind for kind, *_ in SHAPED))


def source(f: _Format) -> str:
    """The regex of a row: prefix, boundary, body, and what may not follow."""
    boundary = _starts_token(f.prefix, f.before) if f.before else ""
    # A token that ran into a redaction stays unmatched once it is next to "[REDACTED]",
    # so that redacting twice changes nothing.
    tail = rf"(?![{f.tail}]|\[REDACTED\])" if f.tail else ""
    return f.prefix + boundary + f.body + tail
