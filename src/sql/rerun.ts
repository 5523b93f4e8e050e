import { validAt } from './as-of.js';
import { intLiteral, stringList } from './literals.js';

/**
 * (Per changed path, `checked_revision` is the revision of the most recently recorded source the
 * verifier looked at.)
 * Failed verifier outcomes valid at the epoch whose sources (the paths they cite or that are
 * verified by them, through edges recorded by then) got a newer artifact revision after the
 * verifier ran. No verifier lock: a failed outcome stays valid and eligible, whatever changed.
 */
export function rerunCandidatesSql(epoch: number, authority: readonly string[] | null): string {
  const scope = (a: string) => (authority === null ? '' : ` AND ${a}.authority IN ${stringList(authority)}`);
  const e = intLiteral(epoch);
  return `WITH v AS (
  SELECT * FROM nodes n WHERE ${validAt('n', epoch)} AND n.kind = 'verifier_outcome' AND n.status IN ('failed', 'error')${scope('n')}
), src AS (
  SELECT v.nid AS vnid, s.path, s.revision, s.tx FROM v
    JOIN edges ed ON ed.src = v.nid AND ed.valid_from <= ${e}
    JOIN nodes s ON s.nid = ed.dst AND s.path IS NOT NULL AND s.valid_from <= ${e}${scope('s')}
  UNION
  SELECT v.nid AS vnid, s.path, s.revision, s.tx FROM v
    JOIN edges ed ON ed.dst = v.nid AND ed.valid_from <= ${e}
    JOIN nodes s ON s.nid = ed.src AND s.path IS NOT NULL AND s.valid_from <= ${e}${scope('s')}
)
SELECT v.id, v.verifier, v.status, v.tx, v.valid_from, src.path,
  arg_max(src.revision, src.tx) AS checked_revision, r.id AS newer_id, r.revision AS newer_revision
FROM v JOIN src ON src.vnid = v.nid
JOIN nodes r ON r.kind = 'artifact_revision' AND r.path = src.path AND ${validAt('r', epoch)} AND r.tx > v.tx${scope('r')}
GROUP BY v.id, v.verifier, v.status, v.tx, v.valid_from, src.path, r.id, r.revision
ORDER BY v.id, src.path, r.id`;
}
