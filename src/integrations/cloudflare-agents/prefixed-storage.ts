import type { DurableObjectKvStorage, DurableObjectKvTransaction } from '../../storage/durable-object.js';

/**
 * A view of a Durable Object's storage whose keys all start with `prefix`: the Agents SDK and the
 * agent's own code share the object's key-value namespace with the ledger, so the ledger's keys
 * (`snapshot`, `log:…`) must not be names they could also pick.
 */
export function prefixedStorage(storage: DurableObjectKvStorage, prefix: string): DurableObjectKvStorage {
  return {
    ...prefixedTransaction(storage, prefix),
    transaction: (closure) => storage.transaction((txn) => closure(prefixedTransaction(txn, prefix))),
  };
}

function prefixedTransaction(storage: DurableObjectKvTransaction, prefix: string): DurableObjectKvTransaction {
  return {
    get: (key) => storage.get(prefix + key),
    async list(options) {
      const stored = await storage.list({ prefix: prefix + options.prefix });
      return new Map([...stored].map(([key, value]) => [key.slice(prefix.length), value]));
    },
    put: (entries) =>
      storage.put(Object.fromEntries(Object.entries(entries).map(([key, value]) => [prefix + key, value]))),
    delete: (keys) => storage.delete(keys.map((key) => prefix + key)),
  };
}
