"""The secret detectors' gates as plain tables, so that a text none of them is in never
imports the token rules.

The prefilter (:mod:`memcli.safety.redact._gates`) needs every rule's gates before it can scan a
text, and building them from the rules meant building the rules: the public catalogue's
rows and the first-party ones (about 2 ms at every start of lint and extract, more than
scanning 100 notes). The rules (:mod:`memcli.safety.redact._tokens`) are imported only when a text
holds a gate one of them can run on. These tables are derived from the rules;
tests/test_redact.py fails when a rule is added, changed or removed without them.
"""

from __future__ import annotations

# Every token rule"s gates (the literals a rule cannot match without), sorted.
GATES: tuple[str, ...] = (
    "-us", ".atlasv1.", "/api/webhooks/", ":AA", "A3-", "AAAAAAAAAAAAAAAAAAAAA", "ABSK",
    "AGE-SECRET-KEY-1", "AIza", "AKCp", "AKIA", "API-", "ASIA", "ATATT3", "ATBB", "AccountKey=",
    "CFPAT-", "CLOJARS_", "EAAA", "EAACEdEose0cBA", "EZAK", "EZTK", "FLWSECK-", "FLWSECK_TEST-",
    "GOCSPX-", "GR1348941", "HRKU-AA", "LTAI", "NRAK-", "PMAK-", "Q~", "SG.", "SK",
    "SharedAccessKey=", "_gitlab_session=", "aio_", "api_org_", "cmVmdGtuOjAxOj", "dapi",
    "dckr_oat_", "dckr_pat_", "doo_v1_", "dop_v1_", "dor_v1_", "dp.", "dt0c01.", "duffel_",
    "eyJ", "figd_", "fio-u-", "fm1a_", "fm1r_", "fm2_", "fo1_", "gho_", "ghp_", "ghr_", "ghs_",
    "ghu_", "github_pat_", "glagent-", "glc_", "glcbt-", "gldt-", "glffct-", "glft-", "glimt-",
    "gloas-", "glpat-", "glptt-", "glrt-", "glsa_", "glsoat-", "gsk_", "hf_", "hooks.slack.com",
    "hvb.", "hvr.", "hvs.", "ico-", "k_live_", "k_test_", "key-", "lin_api_", "lsv2_", "npm_",
    "ntn_", "ops_eyJ", "oy2", "p8e-", "pat", "pat-", "pat.", "pnu_", "pplx-", "pscale_oauth_",
    "pscale_pw_", "pscale_tkn_", "pul-", "pypi-AgEIcHlwaS5vcmc", "pypi-AgENdGVzdC5weXBpLm9yZw",
    "r8_", "rdme_", "rubygems_", "s-s4t2af-", "s-s4t2ud-", "sbp_", "secret_", "sgp_", "sha256~",
    "shippo_", "shpat_", "shpca_", "shppa_", "shpss_", "sk-", "sk-or-v1-", "sk.eyJ", "sl.",
    "sm_aat_", "sm_pat_", "sm_sat_", "sntrys_", "sntryu_", "sq0atp-", "sq0csp-", "sqa_", "sqp_",
    "squ_", "tfp_", "tk-us-", "tskey-", "v1.0-", "webhook.office.com", "whsec_", "xai-",
    "xapp-", "xkeysib-", "xox", "xoxe.", "ya29.",
)
# The gates whose rules all run only with a context word in the text too, and those words.
CONTEXT_OF: dict[str, tuple[str, ...]] = {
    "-us": ("mailchimp",),
    "SK": ("twilio",),
    "key-": ("mailgun",),
}
# The gates that may start a token wrapped over two lines.
WRAP_GATES: frozenset[str] = frozenset((
    ".atlasv1.", "A3-", "AAAAAAAAAAAAAAAAAAAAA", "ABSK", "AGE-SECRET-KEY-1", "AIza", "AKCp",
    "AKIA", "API-", "ASIA", "ATATT3", "ATBB", "AccountKey=", "CFPAT-", "CLOJARS_", "EAAA",
    "EAACEdEose0cBA", "EZAK", "EZTK", "FLWSECK-", "FLWSECK_TEST-", "GOCSPX-", "GR1348941",
    "HRKU-AA", "LTAI", "NRAK-", "PMAK-", "SG.", "SK", "SharedAccessKey=", "_gitlab_session=",
    "aio_", "api_org_", "cmVmdGtuOjAxOj", "dapi", "dckr_oat_", "dckr_pat_", "doo_v1_",
    "dop_v1_", "dor_v1_", "dp.", "dt0c01.", "duffel_", "eyJ", "figd_", "fio-u-", "fm1a_",
    "fm1r_", "fm2_", "fo1_", "gho_", "ghp_", "ghr_", "ghs_", "ghu_", "github_pat_", "glagent-",
    "glc_", "glcbt-", "gldt-", "glffct-", "glft-", "glimt-", "gloas-", "glpat-", "glptt-",
    "glrt-", "glsa_", "glsoat-", "gsk_", "hf_", "hvb.", "hvr.", "hvs.", "ico-", "k_live_",
    "k_test_", "key-", "lin_api_", "lsv2_", "npm_", "ntn_", "ops_eyJ", "oy2", "p8e-", "pat",
    "pat-", "pat.", "pnu_", "pplx-", "pscale_oauth_", "pscale_pw_", "pscale_tkn_", "pul-",
    "pypi-AgEIcHlwaS5vcmc", "pypi-AgENdGVzdC5weXBpLm9yZw", "r8_", "rdme_", "rubygems_",
    "s-s4t2af-", "s-s4t2ud-", "sbp_", "secret_", "sgp_", "sha256~", "shippo_", "shpat_",
    "shpca_", "shppa_", "shpss_", "sk-", "sk-or-v1-", "sk.eyJ", "sl.", "sm_aat_", "sm_pat_",
    "sm_sat_", "sntrys_", "sntryu_", "sq0atp-", "sq0csp-", "sqa_", "sqp_", "squ_", "tfp_",
    "tk-us-", "tskey-", "v1.0-", "whsec_", "xai-", "xkeysib-", "xox", "xoxe.", "ya29.",
))
# The context words of the rules that have one.
CONTEXTS: tuple[str, ...] = (
    "mailchimp", "mailgun", "twilio",
)
# The kinds the catalogue reports, in its order (the priority order of memcli.safety.redact.KINDS).
CATALOGUE_KINDS: tuple[str, ...] = (
    "huggingface-token", "npm-token", "pypi-token", "gitlab-token", "sendgrid-key", "brevo-key",
    "mailgun-key", "twilio-key", "azure-storage-key", "digitalocean-token", "slack-token",
    "google-oauth", "stripe-key", "shopify-token", "databricks-token", "doppler-token",
    "pulumi-token", "postman-key", "linear-key", "grafana-token", "vault-token",
    "terraform-token", "age-key", "sentry-token", "newrelic-key", "dynatrace-token",
    "atlassian-token", "heroku-key", "flyio-token", "planetscale-token", "supabase-token",
    "square-token", "facebook-token", "shippo-token", "easypost-key", "dropbox-token",
    "groq-key", "replicate-token", "xai-key", "perplexity-key", "langsmith-key",
    "openrouter-key", "twitter-token", "mapbox-token", "tailscale-key", "notion-token",
    "airtable-token", "contentful-token", "figma-token", "docker-token", "bitbucket-token",
    "jfrog-token", "octopus-key", "prefect-token", "readme-key", "rubygems-key",
    "clojars-token", "scalingo-token", "typeform-token", "sonar-token", "hubspot-token",
    "onepassword-token", "onepassword-key", "cloudflare-key", "adafruit-key", "frameio-token",
    "duffel-token", "nuget-key", "harness-token", "infracost-key", "openshift-token",
    "flutterwave-key", "adobe-client-secret", "alibaba-key", "aws-bedrock-key",
    "sourcegraph-token", "settlemint-token", "intra42-secret", "gitlab-session",
    "azure-client-secret", "telegram-token", "discord-webhook", "teams-webhook",
    "mailchimp-key",
)
