import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { Spinner } from '@fluentui/react-components';
import { AppLayout } from './layout';
import { HomeRoute } from './routes/home';
import { RouteError } from './routes/route-error';

/** A loader asking for a screen's first data runs on entering it only; within it, each table asks for itself. */
const onEntryOnly = () => false;

/**
 * Each screen is its own chunk, loaded when first visited; Home is in the first page. A screen's
 * loader may put its first data in `queryClient` (the app's query cache) while the screen renders.
 */
export const appRoutes = (queryClient: QueryClient): RouteObject[] => [
  {
    element: <AppLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <Spinner label="Loading" style={{ marginTop: 48 }} />,
    children: [
      { index: true, element: <HomeRoute /> },
      {
        path: 'Menu',
        caseSensitive: true,
        lazy: () => import('./routes/menu').then((m) => ({ Component: m.MenuRoute })),
      },
      {
        path: 'Account',
        caseSensitive: true,
        lazy: () => import('./routes/account').then((m) => ({ Component: m.AccountRoute })),
      },
      {
        path: 'Login',
        caseSensitive: true,
        lazy: () =>
          import('../features/auth/components/login-page').then((m) => ({ Component: m.LoginPage })),
      },
      {
        path: 'Reports',
        caseSensitive: true,
        lazy: () =>
          import('../features/reports/components/reports-page').then((m) => ({
            Component: m.ReportsPage,
            loader: m.receiptsLoader(queryClient),
            shouldRevalidate: onEntryOnly,
          })),
      },
      {
        path: 'Receipts',
        caseSensitive: true,
        lazy: () =>
          import('../features/reports/components/reports-page').then((m) => ({
            Component: m.ReceiptsPage,
            loader: m.receiptsLoader(queryClient),
            shouldRevalidate: onEntryOnly,
          })),
      },
      {
        path: 'Corporation',
        caseSensitive: true,
        lazy: () =>
          import('../features/reports/components/reports-page').then((m) => ({
            Component: m.CorporationPage,
          })),
      },
      {
        path: 'Receipt',
        caseSensitive: true,
        lazy: () =>
          import('../features/receipts/components/receipt-page').then((m) => ({ Component: m.ReceiptPage })),
      },
      {
        path: 'ReceiptImage',
        caseSensitive: true,
        lazy: () => import('./routes/minor').then((m) => ({ Component: m.ReceiptImageRoute })),
      },
      {
        path: 'ReceiptImages',
        caseSensitive: true,
        lazy: () =>
          import('../features/queue/components/queue-page').then((m) => ({ Component: m.QueuePage })),
      },
      {
        path: 'Camera',
        caseSensitive: true,
        lazy: () =>
          import('../features/camera/components/camera-page').then((m) => ({ Component: m.CameraPage })),
      },
      {
        path: 'Merchant',
        caseSensitive: true,
        lazy: () =>
          import('../features/merchants/components/merchant-page').then((m) => ({
            Component: m.MerchantPage,
          })),
      },
      {
        path: 'ProductItem',
        caseSensitive: true,
        lazy: () =>
          import('../features/items/components/product-item-page').then((m) => ({
            Component: m.ProductItemPage,
          })),
      },
      {
        path: 'Brand',
        caseSensitive: true,
        lazy: () =>
          import('../features/brands/components/brand-page').then((m) => ({ Component: m.BrandPage })),
      },
      {
        path: 'Review',
        caseSensitive: true,
        lazy: () =>
          import('../features/review/components/review-page').then((m) => ({ Component: m.ReviewPage })),
      },
      {
        path: 'ProgressBar',
        caseSensitive: true,
        lazy: () => import('./routes/minor').then((m) => ({ Component: m.ProgressBarRoute })),
      },
      {
        path: 'StorageTester',
        caseSensitive: true,
        lazy: () =>
          import('../features/storage-tester/components/storage-tester-page').then((m) => ({
            Component: m.StorageTesterPage,
          })),
      },
      { path: '*', lazy: () => import('./routes/minor').then((m) => ({ Component: m.NotFoundRoute })) },
    ],
  },
];

export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter(appRoutes(queryClient));
}
