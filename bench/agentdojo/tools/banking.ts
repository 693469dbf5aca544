// Banking's reads (AgentDojo's `banking_client.py`, `file_reader.py`, `user_account.py`).
import { at, type Read, type Row, rows, text } from './environment-access.js';

export const bankingReads: Readonly<Record<string, Read>> = {
  get_iban: (env) => text(at(env, 'bank_account.iban')),
  get_balance: (env) => at(env, 'bank_account.balance'),
  get_most_recent_transactions: (env, args) => {
    const n = typeof args.n === 'number' ? args.n : 100;
    return rows(env, 'bank_account.transactions').slice(-n);
  },
  get_scheduled_transactions: (env) => rows(env, 'bank_account.scheduled_transactions'),
  read_file: (env, args) => {
    const files = (at(env, 'filesystem.files') ?? {}) as Row;
    return text(files[text(args.file_path)]);
  },
  get_user_info: (env) => {
    const user = (at(env, 'user_account') ?? {}) as Row;
    return { first_name: user.first_name, last_name: user.last_name, street: user.street, city: user.city };
  },
};
