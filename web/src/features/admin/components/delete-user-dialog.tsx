// The delete-user confirmation (docs/product/screens-and-routes.md#route-table, docs/product/errors-and-texts.md#errors-and-texts): POST /api/admin/cleanup-user; a failure is
// 'Deletion failed' with the server's reason, else 'Failed to delete user'.
import { ADMIN_TEXT } from "@shared/messages";
import type { AdminUser } from "@shared/schemas/admin";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@web/components/ui/alert-dialog";
import { SubmitButton } from "@web/components/ui/submit-button";
import { toast } from "@web/lib/toast-store";
import { errorMessage } from "@web/lib/api";
import { useCleanupUser } from "../api/admin";

export function DeleteUserDialog({ user, onClose }: { user: AdminUser | null; onClose: () => void }) {
  const cleanup = useCleanupUser();
  const confirm = () => {
    if (!user) return;
    cleanup.mutate(user.email, {
      onSuccess: () => {
        toast({ title: ADMIN_TEXT.userDeleted, description: ADMIN_TEXT.userDeletedDescription(user.email) });
        onClose();
      },
      onError: (err) => toast({ variant: "destructive", title: ADMIN_TEXT.deletionFailed, description: errorMessage(err, ADMIN_TEXT.deleteFailed) }),
    });
  };
  return (
    <AlertDialog open={user !== null} onOpenChange={(open) => (open || cleanup.isPending ? undefined : onClose())}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{ADMIN_TEXT.deleteTitle}</AlertDialogTitle>
          <AlertDialogDescription>{user ? ADMIN_TEXT.deleteDescription(user.email) : null}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={cleanup.isPending}>{ADMIN_TEXT.cancel}</AlertDialogCancel>
          {/* A plain button, not AlertDialogAction: the dialog stays open until the deletion answers. */}
          <SubmitButton type="button" variant="destructive" onClick={confirm} pending={cleanup.isPending}>
            {ADMIN_TEXT.deleteConfirm}
          </SubmitButton>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
