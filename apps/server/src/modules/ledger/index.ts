/**
 * The money journal (issue 36, docs/money.md, record 241): every movement of money is one balanced
 * transaction of signed USD entries, written by recordTransaction in the database transaction that moves
 * it; balances are sums over the entries. Other modules use this front door only.
 */
export { accountBalance, accountTotals, userBalanceCents } from './balances';
export { payableByMonth, payableCentsAt, payableMoves, withdrawnCents } from './payable';
export { type JournalEntryInput, recordTransaction } from './record';
