export { DataTable, type DataTableProps } from './data-table';
