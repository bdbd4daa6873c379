// The Admin Dashboard (docs/product/screens-and-routes.md#route-table): statistics, System Configuration, User Management, Available Phone
// Numbers with the assign dialog, the delete confirmation, Refresh Data, and the audit log.
import { RefreshCw } from "lucide-react";
import { useState } from "react";
import { ADMIN_TEXT } from "@shared/messages";
import type { AdminUser } from "@shared/schemas/admin";
import { PageHeader } from "@web/components/layout/page-header";
import { Button } from "@web/components/ui/button";
import { useRefreshAdminData } from "../api/admin";
import { AssignPhoneDialog } from "./assign-phone-dialog";
import { AuditLogCard } from "./audit-log-card";
import { DeleteUserDialog } from "./delete-user-dialog";
import { PhoneNumbersCard } from "./phone-numbers-card";
import { StatCards } from "./stat-cards";
import { SystemConfigCard } from "./system-config-card";
import { UserManagement } from "./user-management";

export function AdminPage({ selfId }: { selfId: string }) {
  const refresh = useRefreshAdminData();
  const [refreshing, setRefreshing] = useState(false);
  const [assignFor, setAssignFor] = useState<AdminUser | null>(null);
  const [deleteFor, setDeleteFor] = useState<AdminUser | null>(null);
  return (
    // min-w-0: wide tables scroll inside their cards instead of widening the page.
    <div className="grid min-w-0 gap-6 [&>*]:min-w-0">
      <PageHeader
        title={ADMIN_TEXT.title}
        actions={
          <Button
            variant="outline"
            disabled={refreshing}
            onClick={() => {
              setRefreshing(true);
              void refresh().finally(() => setRefreshing(false));
            }}
          >
            <RefreshCw className={refreshing ? "animate-spin" : undefined} aria-hidden />
            {ADMIN_TEXT.refreshData}
          </Button>
        }
      />
      <StatCards />
      <SystemConfigCard />
      <UserManagement selfId={selfId} onAssign={setAssignFor} onDelete={setDeleteFor} />
      <PhoneNumbersCard />
      <AuditLogCard />
      <AssignPhoneDialog user={assignFor} onClose={() => setAssignFor(null)} />
      <DeleteUserDialog user={deleteFor} onClose={() => setDeleteFor(null)} />
    </div>
  );
}
