// The assign-phone dialog (docs/product/screens-and-routes.md#route-table, docs/product/errors-and-texts.md#validation-messages): a pool number for the chosen account; both are required
// ('Missing Information'), a refusal is 'Assignment Failed' with the server's reason.
import { useId, useState } from "react";
import { formatPhone } from "@shared/format";
import { ADMIN_TEXT } from "@shared/messages";
import type { AdminUser } from "@shared/schemas/admin";
import { Button } from "@web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { Label } from "@web/components/ui/label";
import { SubmitButton } from "@web/components/ui/submit-button";
import { toast } from "@web/lib/toast-store";
import { errorMessage } from "@web/lib/api";
import { useAssignPhoneNumber, usePlatformNumbers } from "../api/admin";

export function AssignPhoneDialog({ user, onClose }: { user: AdminUser | null; onClose: () => void }) {
  const numbers = usePlatformNumbers();
  const assign = useAssignPhoneNumber();
  const [numberId, setNumberId] = useState("");
  const selectId = useId();
  const pool = (numbers.data?.numbers ?? []).filter((n) => !n.assignedUserId);

  const close = () => {
    setNumberId("");
    onClose();
  };
  const submit = () => {
    const number = pool.find((n) => n.id === numberId);
    if (!user || !number) {
      toast({ variant: "destructive", title: ADMIN_TEXT.missingInformation, description: ADMIN_TEXT.selectBoth });
      return;
    }
    assign.mutate(
      { user_id: user.id, phone_number: number.phoneNumber, vapi_number_id: number.id },
      {
        onSuccess: () => {
          toast({ title: ADMIN_TEXT.assigned, description: ADMIN_TEXT.assignedDescription(formatPhone(number.phoneNumber), user.email) });
          close();
        },
        onError: (err) => toast({ variant: "destructive", title: ADMIN_TEXT.assignmentFailed, description: errorMessage(err, ADMIN_TEXT.assignmentFailed) }),
      },
    );
  };

  return (
    <Dialog open={user !== null} onOpenChange={(open) => (open ? undefined : close())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{ADMIN_TEXT.assignTitle}</DialogTitle>
          <DialogDescription>{user ? ADMIN_TEXT.assignDescription(user.email) : null}</DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <div className="grid gap-2">
            <Label htmlFor={selectId}>{ADMIN_TEXT.numberLabel}</Label>
            <select
              id={selectId}
              className="h-10 rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-2 focus-visible:ring-ring/40 focus-visible:outline-none"
              value={numberId}
              onChange={(e) => setNumberId(e.target.value)}
            >
              <option value="">{ADMIN_TEXT.chooseNumber}</option>
              {pool.map((n) => (
                <option key={n.id} value={n.id}>
                  {formatPhone(n.phoneNumber)} · {n.name || ADMIN_TEXT.unlabeled}
                </option>
              ))}
            </select>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={close}>
              {ADMIN_TEXT.cancel}
            </Button>
            <SubmitButton pending={assign.isPending}>{ADMIN_TEXT.assign}</SubmitButton>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
