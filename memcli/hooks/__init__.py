"""Agent hooks: `memcli hook AGENT` turns an agent's hook events into memory work.

One module per agent maps its events onto the shared actions of :mod:`memcli.hooks.core`
(the context block at the start of a session, the extraction of the turn that just ended);
:mod:`memcli.hooks.queue` runs extractions in a detached worker, one at a time, in order;
:mod:`memcli.hooks.log` is where every failure goes, since a hook never fails the agent.
"""

from memcli.hooks.queue import extract_argv, queue_dir

__all__ = ["extract_argv", "queue_dir"]
