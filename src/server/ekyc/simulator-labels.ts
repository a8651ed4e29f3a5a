import type { SimulatorOutcome } from '../db/schema.js';

/** The simulator page's outcome labels; the browser tests choose outcomes by these same texts. */
export const simulatorOutcomeLabels: Record<SimulatorOutcome, string> = {
  approve: '本人確認OK',
  supplement: '本人確認OK（現住所確認書類の提出を求める）',
  reject: '本人確認NG（書類の不備・顔写真の不一致）',
  pending: '確認中のまま戻る（結果を返さない）',
  error: '本人確認サービスでエラーが発生した',
};
