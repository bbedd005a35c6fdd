import type { TableStore } from '../table-store';
import { CorrectionRuleStore } from './correction-rules';
import { DictionaryRepository } from './dictionary-repository';
import { MerchantRepository } from './merchant-repository';
import { ReceiptRepository } from './receipt-repository';
import { ScanRepository } from './scan-repository';
import { UserRepository } from './user-repository';

/** The repository of each aggregate, over one TableStore (see ./README.md). */
export interface Repositories {
  /** The user's row: profile, push tokens, report data version and write intents, quota counts. */
  readonly users: UserRepository;
  /** Receipts with their items and taxes, and the visit index. */
  readonly receipts: ReceiptRepository;
  /** The user's merchants. */
  readonly merchants: MerchantRepository;
  /** The scan queue and the image index. */
  readonly scans: ScanRepository;
  /** The shared brand and corporation dictionaries. */
  readonly dictionaries: DictionaryRepository;
  /** The rules learnt from the user's corrections. */
  readonly rules: CorrectionRuleStore;
}

/** The repositories of every aggregate over `store`. They hold no state but the store: make them freely. */
export function repositories(store: TableStore): Repositories {
  return {
    users: new UserRepository(store),
    receipts: new ReceiptRepository(store),
    merchants: new MerchantRepository(store),
    scans: new ScanRepository(store),
    dictionaries: new DictionaryRepository(store),
    rules: new CorrectionRuleStore(store),
  };
}
