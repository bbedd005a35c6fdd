export { DataTable, type DataTableProps, type RemoteTableState } from './data-table';
