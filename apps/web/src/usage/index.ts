export { ConversationUsageDialog } from './conversation-usage-dialog.tsx';
export { costText, sumTotals, UsageTable } from './usage-table.tsx';
