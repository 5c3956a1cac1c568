"""Each store's history: one JSON record per applied transaction (docs/history.md).

The package follows the record's life: ``record`` (its types and JSON format),
``journal`` (the records a batch writes, committed in the same transaction as the change
they describe), ``bounds`` (names, sequence numbers and the pruning of old records) and
``read`` (records back, joined into transactions across both stores).
"""

from memcli.writes.history.bounds import MAX_AGE_DAYS, MAX_BYTES, MAX_RECORDS, MIN_KEPT, prune
from memcli.writes.history.journal import journal, new_transaction_id
from memcli.writes.history.read import Transaction, read_records, transactions
from memcli.writes.history.record import (
           FORMAT,
           FileRecord,
           Operation,
           Record,
           Source,
           decode,
           encode,
)

__all__ = ["FORMAT", "MAX_AGE_DAYS", "MAX_BYTES", "MAX_RECORDS", "MIN_KEPT", "FileRecord",
           "Operation", "Record", "Source", "Transaction", "decode", "encode", "journal",
           "new_transaction_id", "prune", "read_records", "transactions"]
