import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { ApiError } from '../shared/api';
import { AuditPage } from '../features/audit/AuditPage';
import { ChatInboxPage } from '../features/chat/ChatInboxPage';
import { DashboardPage } from '../features/dashboard/DashboardPage';
import { EnrolPage } from '../features/login/EnrolPage';
import { LoginPage } from '../features/login/LoginPage';
import { MemberPage } from '../features/members/MemberPage';
import { MembersPage } from '../features/members/MembersPage';
import { OperatorsPage } from '../features/operators/OperatorsPage';
import { PromotionsPage } from '../features/promotions/PromotionsPage';
import { SandboxPage } from '../features/sandbox/SandboxPage';
import { SettingsPage } from '../features/settings/SettingsPage';
import { SlipsPage } from '../features/slips/SlipsPage';
import { UnmatchedPage } from '../features/deposits/UnmatchedPage';
import { HeldPage } from '../features/held/HeldPage';
import { ApprovalsPage } from '../features/approvals/ApprovalsPage';
import { RiskPage } from '../features/risk/RiskPage';
import { ReconciliationPage } from '../features/reconciliation/ReconciliationPage';
import { WithdrawalsPage } from '../features/withdrawals/WithdrawalsPage';
import { Layout } from './Layout';
import { RequireCapability } from './RequireCapability';

// Loaded when first opened: the reports screen brings its chart library with it.
const ReportsPage = lazy(() => import('../features/reports/ReportsPage').then((m) => ({ default: m.ReportsPage })));

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 5_000,
      refetchOnWindowFocus: true,
      // A refusal (4xx) is an answer; only lost answers are asked again.
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
    },
  },
});

/** The back office: its own route tree under /admin. */
export function AdminApp() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter basename="/admin">
        <Routes>
          <Route path="login" element={<LoginPage />} />
          <Route path="enrol/:token" element={<EnrolPage />} />
          <Route element={<Layout />}>
            <Route index element={<DashboardPage />} />
            <Route path="approvals" element={<RequireCapability capability="approvals"><ApprovalsPage /></RequireCapability>} />
            <Route path="withdrawals" element={<RequireCapability capability="withdrawals"><WithdrawalsPage /></RequireCapability>} />
            <Route path="slips" element={<RequireCapability capability="slips.read"><SlipsPage /></RequireCapability>} />
            <Route path="deposits" element={<RequireCapability capability="deposits"><UnmatchedPage /></RequireCapability>} />
            <Route path="held" element={<RequireCapability capability="held"><HeldPage /></RequireCapability>} />
            <Route path="members" element={<RequireCapability capability="members.read"><MembersPage /></RequireCapability>} />
            <Route path="members/:id" element={<RequireCapability capability="members.read"><MemberPage /></RequireCapability>} />
            <Route path="reports" element={<RequireCapability capability="reports"><Suspense fallback={null}><ReportsPage /></Suspense></RequireCapability>} />
            <Route path="reconciliation" element={<RequireCapability capability="reconciliation"><ReconciliationPage /></RequireCapability>} />
            <Route path="risk" element={<RequireCapability capability="risk"><RiskPage /></RequireCapability>} />
            <Route path="chat" element={<RequireCapability capability="chat"><ChatInboxPage /></RequireCapability>} />
            <Route path="promotions" element={<RequireCapability capability="promotions"><PromotionsPage /></RequireCapability>} />
            <Route path="settings" element={<RequireCapability capability="settings"><SettingsPage /></RequireCapability>} />
            <Route path="operators" element={<RequireCapability capability="operators"><OperatorsPage /></RequireCapability>} />
            <Route path="audit" element={<RequireCapability capability="audit"><AuditPage /></RequireCapability>} />
            <Route path="sandbox" element={<RequireCapability capability="sandbox"><SandboxPage /></RequireCapability>} />
            <Route path="*" element={<Navigate to="/" replace />} />
          </Route>
        </Routes>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
