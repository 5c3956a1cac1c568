"""Secrets and look-alikes for the redaction tests and the reliability harness.

Every credential here is generated from a fixed-seed random generator at import time: each
has the right prefix, length and alphabet for its provider, but none is real, and the file
itself holds no literal token for a secret scanner to trip on.

``SECRETS[i]`` is ``(kind, text)``; ``SECRET_VALUES[i]`` is the part of that text that must
be gone after redaction. ``NEAR_MISSES`` are texts that must produce no finding at all.
"""

from __future__ import annotations

import base64
import json
import random
import string

_rng = random.Random(20261130)

_UPPER_DIGITS = string.ascii_uppercase + string.digits
_ALNUM = string.ascii_letters + string.digits
_B64URL = _ALNUM + "-_"
_HEX = "0123456789abcdef"


def _rand(alphabet: str, n: int) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(n))


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _password(n: int = 16) -> str:
    """A password that is safe unquoted in a URL and in a .env line: letter first, with
    digits and a few symbols."""
    return _rand(string.ascii_letters, 1) + _rand(_ALNUM + "!^*_~", n - 3) + _rand(
        string.digits, 1
    ) + _rand(string.ascii_lowercase, 1)


def _aws_key(prefix: str = "AKIA") -> str:
    return prefix + _rand(_UPPER_DIGITS, 16)


def _aws_secret() -> str:
    return _rand(_ALNUM + "/+", 40)


def _github(prefix: str) -> str:
    return prefix + _rand(_ALNUM, 36)


def _github_pat() -> str:
    return "github_pat_" + _rand(_ALNUM, 22) + "_" + _rand(_ALNUM, 59)


def _anthropic(kind: str = "api03") -> str:
    return f"sk-ant-{kind}-" + _rand(_B64URL, 93) + "AA"


def _openai(prefix: str = "proj") -> str:
    if prefix == "":
        return "sk-" + _rand(_ALNUM, 20) + "T3BlbkFJ" + _rand(_ALNUM, 20)
    return f"sk-{prefix}-" + _rand(_B64URL, 74) + "T3BlbkFJ" + _rand(_B64URL, 74)


def _slack(prefix: str = "xoxb") -> str:
    digits = string.digits
    if prefix == "xoxp":
        return (
            f"xoxp-{_rand(digits, 12)}-{_rand(digits, 12)}-{_rand(digits, 13)}-{_rand(_HEX, 32)}"
        )
    return f"{prefix}-{_rand(digits, 12)}-{_rand(digits, 13)}-{_rand(_ALNUM, 24)}"


def _slack_app() -> str:
    return f"xapp-1-A{_rand(_UPPER_DIGITS, 10)}-{_rand(string.digits, 13)}-{_rand(_HEX, 64)}"


def _slack_webhook_path() -> str:
    return f"T{_rand(_UPPER_DIGITS, 8)}/B{_rand(_UPPER_DIGITS, 10)}/{_rand(_ALNUM, 24)}"


def _google() -> str:
    return "AIza" + _rand(_B64URL, 35)


def _stripe(prefix: str = "sk_live_", n: int = 24) -> str:
    return prefix + _rand(_ALNUM, n)


def _pem_body(n_bytes: int) -> str:
    raw = base64.b64encode(_rng.randbytes(n_bytes)).decode()
    return "\n".join(raw[i : i + 64] for i in range(0, len(raw), 64))


def _pem(label: str, n_bytes: int = 900) -> tuple[str, str]:
    body = _pem_body(n_bytes)
    return f"-----BEGIN {label}-----\n{body}\n-----END {label}-----", body


def _jwt(header: dict[str, str] | None = None) -> str:
    head = header or {"alg": "HS256", "typ": "JWT"}
    payload = {"sub": _rand(string.digits, 10), "iat": 1764460800, "scope": "read write"}
    return ".".join(
        (
            _b64url(json.dumps(head).encode()),
            _b64url(json.dumps(payload).encode()),
            _b64url(_rng.randbytes(32)),
        )
    )


SECRETS: list[tuple[str, str]] = []
SECRET_VALUES: list[str] = []
# The credential format of each case (a provider's token kind, finer than the reported
# kind): the coverage figure of benchmarks/redaction.py counts formats.
SECRET_FORMATS: list[str] = []


def _add(kind: str, value: str, template: str, fmt: str | None = None) -> None:
    """Record ``template`` with ``@@`` replaced by ``value`` (``@@`` because the templates
    are full of JSON braces)."""
    assert "@@" in template
    SECRETS.append((kind, template.replace("@@", value)))
    SECRET_VALUES.append(value)
    SECRET_FORMATS.append(fmt or kind)


# --- aws-access-key ------------------------------------------------------------------------
_add("aws-access-key", _aws_key(), "I set the deploy user's key id to @@ for now, rotate later.")
_add("aws-access-key", _aws_key("ASIA"), '{"Credentials": {"AccessKeyId": "@@", "Expiration": '
     '"2026-11-30T12:00:00Z"}}')
_add("aws-access-key", _aws_key(), "aws configure set aws_access_key_id @@ --profile ci")
_add("aws-access-key", _aws_key(), "[default]\naws_access_key_id = @@\nregion = eu-west-1\n")
_add("aws-access-key", _aws_key(), "GET https://bucket.s3.amazonaws.com/report.pdf?"
     "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=@@%2F20261130%2Fus-east-1%2Fs3")
_add("aws-access-key", _aws_key("ASIA"), '"The session key was @@\\nand it expired."')

# --- aws-secret-key ------------------------------------------------------------------------
_add("aws-secret-key", _aws_secret(), "[prod]\naws_secret_access_key = @@\n")
_add("aws-secret-key", _aws_secret(), "export AWS_SECRET_ACCESS_KEY=@@")
_add("aws-secret-key", _aws_secret(), '{"aws_secret_access_key": "@@", "region": "us-east-1"}')

# --- github-token --------------------------------------------------------------------------
_add("github-token", _github("ghp_"), "Use my personal token @@ to push the release tag.")
_add("github-token", _github("gho_"), '{"access_token": "@@", "token_type": "bearer", '
     '"scope": "repo"}')
_add("github-token", _github("ghs_"), "git clone https://x-access-token:@@@github.com/acme/api.git")
_add("github-token", _github("ghu_"), "curl -H 'Authorization: token @@' "
     "https://api.github.com/user")
_add("github-token", _github("ghr_"), "refresh_token=@@&grant_type=refresh_token")
_add("github-token", _github_pat(), "GITHUB_TOKEN=@@\n")
_add("github-token", _github_pat(), "env:\n  GH_TOKEN: @@\n  CI: true\n")

# --- anthropic-key -------------------------------------------------------------------------
_add("anthropic-key", _anthropic(), "ANTHROPIC_API_KEY=@@")
_add("anthropic-key", _anthropic("admin01"), "curl https://api.anthropic.com/v1/organizations "
     "-H 'x-api-key: @@' -H 'anthropic-version: 2023-06-01'")
_add("anthropic-key", _anthropic(), '{"role": "user", "content": "here is the key @@ thanks"}')
_add("anthropic-key", _anthropic("oat01"), "Claude Code printed @@ after login.")

# --- openai-key ----------------------------------------------------------------------------
_add("openai-key", _openai(), "OPENAI_API_KEY=\"@@\"")
_add("openai-key", _openai("svcacct"), '{"api_key": "@@", "model": "gpt-4.1-mini"}')
_add("openai-key", _openai("admin"), "curl https://api.openai.com/v1/organization/users "
     "-H \"Authorization: Bearer @@\"")
_add("openai-key", _openai(""), "The old key @@ still works for the batch job.")
_add("openai-key", _openai(), "client = OpenAI(api_key='@@')")

# --- slack ---------------------------------------------------------------------------------
_add("slack-token", _slack(), "SLACK_BOT_TOKEN=@@")
_add("slack-token", _slack("xoxp"), '{"ok": true, "access_token": "@@", "team": {"id": "T1"}}')
_add("slack-token", _slack(), "The bot posts with @@ into #deploys.")
_add("slack-token", _slack_app(), "socket mode app token: @@")
_add("slack-webhook", _slack_webhook_path(), "Alerts go to https://hooks.slack.com/services/@@ "
     "(the #oncall channel).")
_add("slack-webhook", _slack_webhook_path(), '{"webhook_url": '
     '"https://hooks.slack.com/services/@@"}')

# --- google-api-key ------------------------------------------------------------------------
_add("google-api-key", _google(), "https://maps.googleapis.com/maps/api/geocode/json?"
     "address=Berlin&key=@@")
_add("google-api-key", _google(), '{"apiKey": "@@", "authDomain": "acme.firebaseapp.com"}')
_add("google-api-key", _google(), "The Gemini key is @@; keep it out of the repo.")

# --- stripe-key ----------------------------------------------------------------------------
_add("stripe-key", _stripe(), "Stripe live key: @@ (finance asked us to rotate it monthly).")
_add("stripe-key", _stripe("rk_live_", 99), "STRIPE_RESTRICTED_KEY=@@")
_add("stripe-key", _stripe("sk_test_"), '{"stripe": {"secret": "@@"}}')
_add("stripe-key", _stripe("sk_live_", 99), "curl https://api.stripe.com/v1/charges -u @@:")

# --- private-key ---------------------------------------------------------------------------
_block, _body = _pem("RSA PRIVATE KEY", 1190)
_add("private-key", _body, "Here is the deploy key:\n\n" + _block.replace(_body, "@@")
     + "\n\nPlease install it.")
_block, _body = _pem("OPENSSH PRIVATE KEY", 300)
_add("private-key", _body, _block.replace(_body, "@@") + "\n")
_block, _body = _pem("EC PRIVATE KEY", 120)
_add("private-key", _body.replace("\n", "\\n"),
     json.dumps({"content": _block}).replace(_body.replace("\n", "\\n"), "@@"))
_block, _body = _pem("PRIVATE KEY", 600)
_truncated = "\n".join(_body.splitlines()[:6])
_add("private-key", _truncated, "-----BEGIN PRIVATE KEY-----\n@@\n\nsorry, the paste got cut off")
_block, _body = _pem("PGP PRIVATE KEY BLOCK", 500)
_add("private-key", _body, _block.replace(_body, "Version: GnuPG v2\n\n@@"))
_block, _body = _pem("ENCRYPTED PRIVATE KEY", 400)
_add("private-key", _body, "key.pem:\n```\n" + _block.replace(_body, "@@") + "\n```")
_block, _body = _pem("EC PRIVATE KEY", 121)
_indented = _body.replace("\n", "\n    ")
_add("private-key", _indented, "tls:\n  key: |\n    "
     + _block.replace(_body, "@@").replace("\n", "\n    ") + "\n  cert: ca.pem\n")
_block, _body = _pem("PRIVATE KEY", 300)
_indented = "\n".join(_body.splitlines()[:4]).replace("\n", "\n      ")
_add("private-key", _indented, "- step: install the key\n  with:\n    key: |\n"
     "      -----BEGIN PRIVATE KEY-----\n      @@\n  (rest of the paste was lost)\n")
_block, _body = _pem("RSA PRIVATE KEY", 400)
_truncated = "\\n".join(_body.splitlines()[:5])
_add("private-key", _truncated,
     '{"type": "tool_result", "content": "-----BEGIN RSA PRIVATE KEY-----\\n@@"}')

# --- jwt -----------------------------------------------------------------------------------
_add("jwt", _jwt(), "Authorization: Bearer @@")
_add("jwt", _jwt({"alg": "RS256", "kid": "k1"}), "Cookie: session=@@; Path=/; HttpOnly")
_add("jwt", _jwt({"alg": "ES256", "typ": "JWT"}), '{"id_token": "@@", "expires_in": 3600}')
_add("jwt", _jwt(), "The service account token is @@.")

# --- url-password --------------------------------------------------------------------------
_add("url-password", _password(), "DATABASE_URL=postgres://app:@@@db.internal:5432/orders")
_add("url-password", _password(), "redis-cli -u redis://:@@@cache.internal:6379/0 ping")
_add("url-password", _password(20), '{"mongo": "mongodb+srv://svc:@@@cluster0.abcde.mongodb.net/'
     'prod?retryWrites=true"}')
_add("url-password", _password(), "Broker: amqp://worker:@@@rabbit:5672/ (vhost /)")
_add("url-password", "p@ss" + _password(10), "psql postgresql://admin:@@@10.0.0.5/db")
_add("url-password", _password(), "git remote add origin https://alice:@@@git.example.org/team/repo")

# --- auth-header ---------------------------------------------------------------------------
_add("auth-header", _rand(_ALNUM, 40), "curl -H 'Authorization: Bearer @@' https://api.internal/v2")
_add("auth-header", base64.b64encode(b"deploy:" + _password().encode()).decode(),
     "Authorization: Basic @@")
# Letters only: base64 of "user:password" need not contain a digit.
_add("auth-header", base64.b64encode(
    ("svc:" + _rand(string.ascii_letters, 14)).encode()).decode().rstrip("="),
    "wget --header='Authorization: Basic @@' https://ci.internal/artifact")

# --- env-assignment ------------------------------------------------------------------------
_add("env-assignment", _password(), "DB_PASSWORD=@@\nDB_HOST=localhost\n")
_add("env-assignment", _password(), "export SECRET_KEY='@@'")
_add("env-assignment", _password(), "database:\n  user: app\n  password: @@\n")
_add("env-assignment", _rand(_ALNUM, 32), '{"client_id": "web", "client_secret": "@@"}')
_add("env-assignment", _password(), "docker run -e POSTGRES_PASSWORD=@@ postgres:16")
_add("env-assignment", "hf_" + _rand(_ALNUM, 34), "HF_TOKEN=@@ huggingface-cli download x")
_add("env-assignment", _password(), "mysql --user=root --password=@@ shop")
_add("env-assignment", _rand(_HEX, 32), "settings.py: API_KEY = \"@@\"")
_add("env-assignment", _password(), '"NPM_TOKEN=@@\\nREGISTRY=npmjs.org"')
_add("env-assignment", _password(), "const config = { authToken: '@@' };")
_add("env-assignment", _rand(_ALNUM, 40), "GET https://api.example.org/callback?state=af0ifjsldkj"
     "&access_token=@@&expires_in=3600 HTTP/1.1")
_add("env-assignment", "Zr8#q;w&" + _password(10), "PASSWORD='@@'")


# --- the public catalogues -------------------------------------------------------------------
# Formats as gitleaks' rules and detect-secrets' plugins describe them (prefix, length,
# alphabet), each in a context where people paste it.
_LOWER_ALNUM = string.ascii_lowercase + string.digits
_AGE = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
_CATALOGUE: list[tuple[str, str, str, str]] = [
    # (format, reported kind, token, template)
    ("huggingface", "huggingface-token", "hf_" + _rand(string.ascii_letters, 34),
     "HF_TOKEN=@@ huggingface-cli download meta-llama/x"),
    ("huggingface-org", "huggingface-token", "api_org_" + _rand(string.ascii_letters, 34),
     "org token: @@"),
    ("npm", "npm-token", "npm_" + _rand(_ALNUM, 36), "//registry.npmjs.org/:_authToken=@@"),
    ("npm-prose", "npm-token", "npm_" + _rand(_ALNUM, 36), "publish with @@ from the CI vault"),
    ("pypi", "pypi-token", "pypi-AgEIcHlwaS5vcmc" + _rand(_B64URL, 70),
     "[pypi]\n  username = __token__\n  password = @@\n"),
    ("gitlab-pat", "gitlab-token", "glpat-" + _rand(_B64URL, 20), "PRIVATE-TOKEN: @@"),
    ("gitlab-pat-routable", "gitlab-token",
     "glpat-" + _rand(_B64URL, 36) + "." + _rand(_LOWER_ALNUM, 9), "my gitlab token is @@"),
    ("gitlab-deploy", "gitlab-token", "gldt-" + _rand(_ALNUM, 20),
     "deploy token @@ for the registry"),
    ("gitlab-runner", "gitlab-token", "glrt-" + _rand(_ALNUM, 20),
     "gitlab-runner register --token @@"),
    ("gitlab-trigger", "gitlab-token", "glptt-" + _rand(_HEX, 40), "curl -F token=@@ -F ref=main"),
    ("gitlab-rrt", "gitlab-token", "GR1348941" + _rand(_ALNUM, 20), "registration token @@"),
    ("sendgrid", "sendgrid-key", "SG." + _rand(_B64URL, 22) + "." + _rand(_B64URL, 43),
     "sg = SendGridAPIClient('@@')"),
    ("azure-storage", "azure-storage-key", _rand(_ALNUM + "+/", 86) + "==",
     "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=@@;EndpointSuffix=core.windows.net"),
    ("azure-servicebus", "azure-storage-key", _rand(_ALNUM + "+/", 43) + "=",
     "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=@@"),
    ("azure-client-secret", "azure-client-secret",
     _rand(_ALNUM, 3) + "8Q~" + _rand(_ALNUM + "_~.-", 34), "client secret: @@"),
    ("digitalocean-pat", "digitalocean-token", "dop_v1_" + _rand(_HEX, 64),
     "doctl auth init -t @@"),
    ("digitalocean-oauth", "digitalocean-token", "doo_v1_" + _rand(_HEX, 64), "oauth @@"),
    ("digitalocean-refresh", "digitalocean-token", "dor_v1_" + _rand(_HEX, 64), "refresh @@"),
    ("slack-refresh", "slack-token", "xoxe-1-" + _rand(_ALNUM, 140), "refresh token @@"),
    ("slack-config", "slack-token", "xoxe.xoxp-1-" + _rand(_ALNUM, 140), "config token @@"),
    ("google-oauth-secret", "google-oauth", "GOCSPX-" + _rand(_B64URL, 28),
     '{"installed": {"client_id": "1.apps.googleusercontent.com", "client_secret": "@@"}}'),
    ("google-oauth-access", "google-oauth", "ya29." + _rand(_B64URL, 120), "token: @@ (expires)"),
    ("pgpassword", "env-assignment", _password(), "PGPASSWORD=@@ psql -h db -U app"),
    ("mysql-pwd", "env-assignment", _password(), "MYSQL_PWD=@@ mysqldump shop"),
    ("stripe-webhook", "stripe-key", "whsec_" + _rand(_ALNUM, 32), "STRIPE_WEBHOOK=@@"),
    ("shopify", "shopify-token", "shpat_" + _rand(_HEX, 32), "X-Shopify-Access-Token: @@"),
    ("databricks", "databricks-token", "dapi" + _rand(_HEX, 32), "databricks token @@"),
    ("doppler", "doppler-token", "dp.pt." + _rand(_ALNUM, 43), "doppler --token @@ run"),
    ("pulumi", "pulumi-token", "pul-" + _rand(_HEX, 40), "PULUMI_ACCESS=@@"),
    ("postman", "postman-key", "PMAK-" + _rand(_HEX, 24) + "-" + _rand(_HEX, 34), "postman @@"),
    ("linear", "linear-key", "lin_api_" + _rand(_ALNUM, 40), "Linear API key @@"),
    ("grafana-sa", "grafana-token", "glsa_" + _rand(_ALNUM, 32) + "_" + _rand(_HEX, 8),
     "grafana service account @@"),
    ("vault", "vault-token", "hvs." + _rand(_B64URL, 95), "VAULT_TOKEN=@@ vault kv get x"),
    ("terraform", "terraform-token",
     _rand(_LOWER_ALNUM, 14) + ".atlasv1." + _rand(_LOWER_ALNUM, 67),
     'credentials "app.terraform.io" { token = "@@" }'),
    ("age", "age-key", "AGE-SECRET-KEY-1" + _rand(_AGE, 58), "# age key\n@@\n"),
    ("sentry-org", "sentry-token", "sntrys_" + _rand(_ALNUM, 80), "SENTRY_AUTH=@@"),
    ("newrelic", "newrelic-key", "NRAK-" + _rand(_UPPER_DIGITS, 27), "new relic user key @@"),
    ("dynatrace", "dynatrace-token",
     "dt0c01." + _rand(_UPPER_DIGITS, 24) + "." + _rand(_UPPER_DIGITS, 64), "dynatrace @@"),
    ("atlassian", "atlassian-token", "ATATT3" + _rand(_B64URL, 186), "jira token @@"),
    ("heroku", "heroku-key", "HRKU-AA" + _rand(_B64URL, 58), "heroku auth token @@"),
    ("flyio", "flyio-token", "fo1_" + _rand(_B64URL, 43), "FLY_API=@@"),
    ("planetscale", "planetscale-token", "pscale_tkn_" + _rand(_ALNUM, 43), "pscale @@"),
    ("supabase", "supabase-token", "sbp_" + _rand(_HEX, 40), "supabase login --token @@"),
    ("square", "square-token", "sq0csp-" + _rand(_B64URL, 43), "square secret @@"),
    ("shippo", "shippo-token", "shippo_live_" + _rand(_HEX, 40), "shippo @@"),
    ("easypost", "easypost-key", "EZAK" + _rand(_ALNUM, 54), "easypost @@"),
    ("dropbox", "dropbox-token", "sl." + _rand(_B64URL, 138), "dropbox access token @@"),
    ("groq", "groq-key", "gsk_" + _rand(_ALNUM, 52), "GROQ=@@"),
    ("replicate", "replicate-token", "r8_" + _rand(_ALNUM, 37), "replicate @@"),
    ("xai", "xai-key", "xai-" + _rand(_ALNUM, 80), "grok key @@"),
    ("perplexity", "perplexity-key", "pplx-" + _rand(_ALNUM, 48), "pplx @@"),
    ("langsmith", "langsmith-key", "lsv2_pt_" + _rand(_HEX, 32) + "_" + _rand(_HEX, 10),
     "LANGSMITH=@@"),
    ("openrouter", "openrouter-key", "sk-or-v1-" + _rand(_HEX, 64), "openrouter key @@"),
    ("twitter-bearer", "twitter-token", "A" * 22 + _rand(_ALNUM + "%", 90), "bearer @@"),
    ("mapbox", "mapbox-token", "sk.eyJ" + _rand(_ALNUM, 60) + "." + _rand(_B64URL, 22),
     "mapbox secret @@"),
    ("tailscale", "tailscale-key", "tskey-auth-" + _rand(_ALNUM, 12) + "-" + _rand(_ALNUM, 33),
     "tailscale up --authkey @@"),
    ("notion", "notion-token", "ntn_" + _rand(string.digits, 11) + _rand(_ALNUM, 35), "notion @@"),
    ("airtable", "airtable-token", "pat" + _rand(_ALNUM, 14) + "." + _rand(_HEX, 64),
     "airtable @@"),
    ("contentful", "contentful-token", "CFPAT-" + _rand(_B64URL, 43), "contentful @@"),
    ("figma", "figma-token", "figd_" + _rand(_B64URL, 40), "figma @@"),
    ("dockerhub", "docker-token", "dckr_pat_" + _rand(_B64URL, 27),
     "echo @@ | docker login -u me --password-stdin"),
    ("jfrog", "jfrog-token", "AKCp" + _rand(_ALNUM, 69), "artifactory @@"),
    ("prefect", "prefect-token", "pnu_" + _rand(_ALNUM, 36), "prefect @@"),
    ("rubygems", "rubygems-key", "rubygems_" + _rand(_HEX, 48), "gem push key @@"),
    ("brevo", "brevo-key", "xkeysib-" + _rand(_HEX, 64) + "-" + _rand(_ALNUM, 16), "brevo @@"),
    ("mailgun", "mailgun-key", "key-" + _rand(_HEX, 32), "mailgun api key: @@"),
    ("mailchimp", "mailchimp-key", _rand(_HEX, 32) + "-us6", "mailchimp key @@"),
    ("twilio", "twilio-key", "SK" + _rand(_HEX, 32), "twilio api key sid @@"),
    ("telegram", "telegram-token", _rand(string.digits, 10) + ":AA" + _rand(_B64URL, 33),
     "telegram bot @@"),
    ("discord-webhook", "discord-webhook", _rand(_B64URL, 68),
     "https://discord.com/api/webhooks/" + _rand(string.digits, 18) + "/@@"),
    ("sonar", "sonar-token", "squ_" + _rand(_HEX, 40), "sonar.login=@@"),
    ("hubspot", "hubspot-token", "pat-na1-" + "-".join(_rand(_HEX, n) for n in (8, 4, 4, 4, 12)),
     "hubspot @@"),
    ("onepassword-sa", "onepassword-token", "ops_eyJ" + _rand(_B64URL, 300), "OP_SERVICE=@@"),
    ("adafruit", "adafruit-key", "aio_" + _rand(_ALNUM, 28), "adafruit io @@"),
    ("nuget", "nuget-key", "oy2" + _rand(_LOWER_ALNUM, 43), "nuget push -k @@"),
    ("openshift", "openshift-token", "sha256~" + _rand(_B64URL, 43), "oc login --token=@@"),
    ("infracost", "infracost-key", "ico-" + _rand(_ALNUM, 32), "infracost @@"),
    ("flutterwave", "flutterwave-key", "FLWSECK_TEST-" + _rand("abcdefgh0123456789", 32) + "-X",
     "flutterwave @@"),
    ("readme", "readme-key", "rdme_" + _rand(_LOWER_ALNUM, 70), "readme @@"),
    ("onepassword-secret-key", "onepassword-key",
     "A3-" + "-".join(_rand(_UPPER_DIGITS, n) for n in (6, 6, 5, 5, 5, 5)), "1Password @@"),
    ("bitbucket", "bitbucket-token", "ATBB" + _rand(_ALNUM, 32), "bitbucket app password @@"),
    ("frameio", "frameio-token", "fio-u-" + _rand(_B64URL, 64), "frame.io @@"),
    ("octopus", "octopus-key", "API-" + _rand(_UPPER_DIGITS, 26), "octopus @@"),
    ("typeform", "typeform-token", "tfp_" + _rand(_B64URL, 59), "typeform @@"),
    ("facebook", "facebook-token", "EAACEdEose0cBA" + _rand(_ALNUM, 120), "fb token @@"),
    ("duffel", "duffel-token", "duffel_test_" + _rand(_B64URL, 43), "duffel @@"),
    ("scalingo", "scalingo-token", "tk-us-" + _rand(_B64URL, 48), "scalingo @@"),
    ("clojars", "clojars-token", "CLOJARS_" + _rand(_LOWER_ALNUM, 60), "clojars @@"),
    ("teams-webhook", "teams-webhook", _rand(_HEX, 8) + "-" + _rand(_HEX, 4) + "@"
     + _rand(_HEX, 8) + "/IncomingWebhook/" + _rand(_HEX, 32) + "/" + _rand(_HEX, 8),
     "https://acme.webhook.office.com/webhookb2/@@"),
    ("harness", "harness-token", "pat." + _rand(_B64URL, 22) + "." + _rand(_HEX, 24) + "."
     + _rand(_ALNUM, 20), "harness @@"),
    ("cloudflare-origin-ca", "cloudflare-key", "v1.0-" + _rand(_HEX, 24) + "-" + _rand(_HEX, 146),
     "origin ca key @@"),
    ("curl-user", "cli-password", _password(), "curl -u deploy:@@ https://ci.internal/api"),
    ("netrc", "cli-password", _password(), "machine api.internal login deploy password @@\n"),
    ("docker-auth", "cli-password", base64.b64encode(b"deploy:" + _password().encode()).decode(),
     '{"auths": {"registry.internal": {"auth": "@@"}}}'),
    ("url-json-escaped", "url-password", _password(),
     '{"url": "https:\\/\\/deploy:@@@git.internal\\/team\\/repo.git"}'),
    ("slack-webhook-escaped", "slack-webhook", _slack_webhook_path().replace("/", "\\/"),
     '{"hook": "https:\\/\\/hooks.slack.com\\/services\\/@@"}'),
]
for _fmt, _kind, _token, _template in _CATALOGUE:
    _add(_kind, _token, _template, _fmt)

# Issue 25: the shapes a secret-named key, a client's password flag or a cookie give a value
# of any length or alphabet.
for _fmt, _kind, _token, _template in [
    ("cookie-pair", "cookie", _rand(_ALNUM, 40), "Cookie: _ga=GA1.2.3; session=@@; lang=en"),
    ("set-cookie", "cookie", _rand(_B64URL, 30), "set-cookie: remember_me=@@; Max-Age=3600"),
    ("cookie-random-name", "cookie", _rand(_ALNUM, 26) + "7",
     '-H "cookie: PHPSESSID=@@"'),
    ("mysql-glued", "cli-password", "Xq!" + _rand(_ALNUM, 6) + "%2",
     "mysqladmin -uroot -p@@ status"),
    ("mariadb-glued-quoted", "cli-password", _rand(_ALNUM, 9) + "#1",
     "mariadb -h db -p'@@' -e 'show tables'"),
    ("sshpass-bare", "cli-password", _password(10), "sshpass -p @@ scp build.tgz ci@host:"),
    ("redis-cli", "cli-password", _password(12), "redis-cli -h cache -a @@ ping"),
    ("long-password-flag", "cli-password", _password(11),
     "keytool -list --store-password @@ -keystore app.jks"),
    ("podman-login", "cli-password", _rand(_ALNUM, 20), "podman login -u bot -p @@ quay.io"),
    ("env-short-symbols", "env-assignment", "p4$" + _rand(_ALNUM, 3),
     "MAIL_PASSWORD=@@\nMAIL_PORT=25"),
    ("env-letters", "env-assignment", _rand(string.ascii_lowercase, 9),
     "ADMIN_PASSWORD: @@"),
    ("env-hash-punctuation", "env-assignment", "a#" + _rand(_ALNUM, 8) + "&;k",
     "SMTP_PASS='@@'"),
    ("azure-key-short", "env-assignment", _rand(_ALNUM + "+/", 40) + "=",
     "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=r;AccountKey=@@;x=1"),
    ("client-secret-json", "env-assignment", _rand(_B64URL, 12),
     '{"clientSecret": "@@"}'),
    ("session-secret-yaml", "env-assignment", _rand(_ALNUM, 10) + "9",
     "session_key: @@"),
    # Catalogue rows added from gitleaks' rules.
    ("adobe", "adobe-client-secret", "p8e-" + _rand(_ALNUM, 32), "ADOBE_CLIENT=@@"),
    ("alibaba", "alibaba-key", "LTAI" + _rand(_ALNUM, 20), "aliyun key id @@ for oss"),
    ("bedrock", "aws-bedrock-key", "ABSK" + _rand(_ALNUM + "+/", 130) + "=",
     "export AWS_BEARER_TOKEN_BEDROCK=@@"),
    ("sourcegraph", "sourcegraph-token", "sgp_" + _rand(_HEX, 16) + "_" + _rand(_HEX, 40),
     "src login with @@"),
    ("settlemint", "settlemint-token", "sm_pat_" + _rand(_ALNUM, 16), "token @@ used"),
    ("intra42", "intra42-secret", "s-s4t2ud-" + _rand(_HEX, 64), "client secret @@"),
    ("flyio-macaroon", "flyio-token", "fm1r_" + _rand(_ALNUM + "+/", 120), "FLY=@@"),
    ("gitlab-session", "gitlab-session", "_gitlab_session=" + _rand("0123456789abcdef", 32),
     "saw @@ in the HAR"),
]:
    _add(_kind, _token, _template, _fmt)


def _wrapped(token: str, cut: int, sep: str = "\n") -> str:
    return token[:cut] + sep + token[cut:]


# A key wrapped over two lines: by a terminal (newline), by a YAML block (indentation), by
# JSON (an escaped newline). What must be gone is both halves.
for _fmt, _kind, _token, _cut, _sep, _template in [
    ("wrapped-openai", "openai-key", _openai(), 60, "\n", "OPENAI_API_KEY=@@\n"),
    ("wrapped-github", "github-token", _github("ghp_"), 20, "\n  ", "token:\n  @@\nnext: 1"),
    ("wrapped-huggingface", "huggingface-token", "hf_" + _rand(string.ascii_letters, 34), 15,
     "\\n", '{"text": "my token is @@ ok"}'),
    ("wrapped-anthropic", "anthropic-key", _anthropic(), 50, "\r\n", "key:\r\n@@\r\n"),
]:
    _add(_kind, _wrapped(_token, _cut, _sep), _template, _fmt)


_UUID = "123e4567-e89b-42d3-a456-426614174000"
_SHA1 = "3f786850e387550fdab836ed7e6dc881de23001b"
_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

NEAR_MISSES: list[str] = [
    "Remember: never commit the password file; ask Alice for the password.",
    "Password: ********",
    "The password must be at least 12 characters long.",
    "The token budget is 4096 tokens; set max_tokens=4096 and TOKEN_LIMIT=128000.",
    '{"usage": {"input_tokens": 1200, "cache_read_input_tokens": 88000, "output_tokens": 300}}',
    "Each request gets a token: see docs/auth.md for how tokens are refreshed.",
    f"request id {_UUID} failed with 502",
    f"Fixed in commit {_SHA1} (see the changelog).",
    f"image digest sha256:{_SHA256}",
    f'{{"checksum": "{_SHA256}", "commit": "{_SHA1}"}}',
    "PASSWORD=",
    "API_KEY=${API_KEY}",
    "TOKEN=$GITHUB_TOKEN",
    "OPENAI_API_KEY=<your-key>",
    "SECRET=changeme",
    "API_KEY=xxxxxxxxxxxxxxxx",
    "ANTHROPIC_API_KEY=sk-ant-...",
    "password: ${DB_PASSWORD}",
    "      GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
    'api_key = os.environ["OPENAI_API_KEY"]',
    "token = get_token(user_id=42)",
    "PASSWORD=[REDACTED]",
    "We use sk-learn (scikit-learn) for the baseline model.",
    "Branch sk-learn-pipeline-for-customer-churn-2024 is merged.",
    "ghp_abc123 is too short to be a token.",
    # AWS documentation examples: allowed on purpose, see memcli/redact.py.
    "AWS docs use AKIAIOSFODNN7EXAMPLE as the access key id.",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    # Stripe's and jwt.io's published examples: allowed on purpose, same reason.
    "stripe.api_key = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc'",
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwi"
    "aWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    "xoxo, see you tomorrow! Slack bot tokens start with xoxb-.",
    "Clone https://alice@git.example.org/team/repo.git over HTTPS.",
    "postgres://localhost/db",
    "postgres://user:password@localhost:5432/app",
    "The config lives in a.b.c and com.example.app.settings.yaml.",
    "请不要把密码写进记忆文件，密码应该放在密钥管理器里。",
    "-----BEGIN PUBLIC KEY-----\n" + _pem_body(270) + "\n-----END PUBLIC KEY-----",
    "-----BEGIN CERTIFICATE-----\n" + _pem_body(600) + "\n-----END CERTIFICATE-----",
    "A key file starts with `-----BEGIN PRIVATE KEY-----`; never paste one here.",
    "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
    "git@github.com:acme/api.git and ssh://git@github.com:22/acme/api.git",
    "http://localhost:8080/health returned 200",
    "SGVsbG8sIFdvcmxkISBUaGlzIGlzIGp1c3Qgb3JkaW5hcnkgYmFzZTY0IGRhdGEu",
    # A JWT shape whose header has no "alg": base64 of ordinary JSON, not a token.
    _b64url(b'{"kind":"note","v":1}') + "." + _b64url(b'{"title":"build workflow"}') + "."
    + _b64url(b"just some padding bytes here"),
    "pk_live_" + _rand(_ALNUM, 24) + " is the publishable key, safe in the browser.",
    "AKIA" + _rand(_UPPER_DIGITS, 24) + " is a build id, not an access key.",
    "AIza is the prefix of Google keys.",
    "BYPASS=enabled2024 and bypass_cache=True",
    "Use --password-stdin with docker login.",
    "Run `pass show work/db` to print it.",
    "The secret to reliable tests is determinism.",
    "Authorization: Bearer $TOKEN",
    "Authorization: Bearer <token>",
    "redis://:@localhost:6379/0",
    "PRIMARY_KEY=user_id2024",
    '{"api_key": null, "password": "", "token": true}',
    "password_file: /run/secrets/db_password",
    "PWD=/home/ci/build2",
    "The password is stored in 1Password.",
    "sk_test_123 is not a full key",
    "if password == confirm2024: save()",
    "amqp://guest:guest@localhost:5672/ is RabbitMQ's default.",
    '{"nextPageToken": "CiAKGjBpNDd2Nmp2Zml2a2xtbm9wcXJzdHV2", "items": []}',
    '<input type="password" name="password" value="" autocomplete="current-password">',
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAC"
    "hwGA60e6kgAAAABJRU5ErkJggg==",
    "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db-creds-v2\n"
    "        key: password\n",
    '{"access_token_expires_in": 3600, "token_type": "Bearer"}',
    'password_hash: "$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW"',
    # Stand-ins from docs and tutorials.
    "GITHUB_TOKEN=ghp_" + "x" * 36,
    "aws_access_key_id = AKIAXXXXXXXXXXXXXXXX",
    "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    "Keys look like sk-ant-api03-" + "x" * 93 + "AA.",
    # Near misses of the catalogued formats: the prefix in ordinary text or code.
    "from huggingface_hub import hf_hub_download; hf_transfer speeds it up.",
    "npm_config_cache=/tmp/npm and npm_package_version=1.2.3",
    "Install from pypi-mirror.internal or the pypi-simple index.",
    "glpat-XXXXXXXXXXXXXXXXXXXX is the format of a GitLab token.",
    "See SG.1.2 of the handbook and SG.intro for the summary.",
    "AccountKey=<storage-account-key>;EndpointSuffix=core.windows.net",
    "DigitalOcean tokens start with dop_v1_ and are 71 characters long.",
    "xoxe. is the prefix of Slack's refresh tokens.",
    "client_secret: GOCSPX-<your-secret>",
    "PGPASSWORD=$PGPASSWORD psql -h db",
    "export PGPASSWORD=\"$(cat /run/secrets/pg)\"",
    "The key-value store keeps key-3f786850 as the cache key.",
    "Twilio SKUs and the SK prefix are explained in the docs.",
    "The API-Gateway forwards to api-internal; see API-1234 in Jira.",
    "Read the pattern docs: pathlib.Path and pat.match are unrelated.",
    "secret_santa_assignments_for_the_2024_office_party",
    "Use sl.bb to link the Dropbox shared folder.",
    "The ticket AAAAAAAAAAAAAAAAAAAAAAAAAAAA was a test value.",
    "sha256~ prefixes mark OpenShift tokens.",
    "Run hf_ scripts from the tools folder and npm_ commands from the root.",
    "curl -u $USER:$TOKEN https://api.internal",
    "curl -u user:password https://httpbin.org/basic-auth/user/password",
    "machine github.com login alice password $GITHUB_TOKEN",
    '{"auth": "none", "_auth": ""}',
    "The bypass password policy is explained at the compass: level2 meeting.",
    "https:\\/\\/example.org\\/path\\/to\\/page",
    '"url": "https:\\/\\/user:password@localhost\\/db"',
    "A3-pages are printed on the big printer.",
    "ya29. is how Google access tokens begin.",
    "The token is\nThanks for reading.",
    "commit 3f786850e387550fdab836ed7e6dc881de23001b\nAuthor: Alice <a@example.org>",
    # Issue 25: values that are not values, flags that are not passwords, cookies that
    # hold no session.
    "DB_PASSWORD=$(vault read -field=pw secret/db)",
    "token: Optional[str] = None",
    "password: str",
    "user_password = request.form['password']",
    "api_key=config.api_key",
    "TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "mysql -u app -p appdb < dump.sql",
    "mysqldump -p --single-transaction shop",
    "tar -xpf release.tgz && rsync -p a b",
    "redis-cli -a $REDIS_PASSWORD ping",
    "sshpass -p \"$SSHPASS\" ssh host",
    "docker run -p 5432:5432 postgres",
    "kubectl port-forward svc/db 5432 -p 1",
    "Cookie: consent=yes; theme=light",
    "Set-Cookie: lang=fr; Path=/",
    "cookie: session=<session-id>",
    "pg_restore --password --dbname app dump.bin",
    "vault write auth/token --token-file /run/token",
    "SECRET=",
    "password: '{{ vault_db_password }}'",
    "TOKEN_COUNT=2048",
    "secret: 12.5",
]
