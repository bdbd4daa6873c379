// Buying one number (docs/product/phone-numbers.md#buying-a-number "Phone purchase"): confirm, purchasing, then the result:
// success (with or without the voice-platform copy), limit reached, or error.
import { AlertTriangle, CircleAlert, CircleCheck, LoaderCircle, Phone } from "lucide-react";
import { useState } from "react";
import { formatPhone } from "@shared/format";
import { PHONE_TEXT, phoneLimitReachedMessage } from "@shared/messages";
import { UpgradeLink } from "@web/components/plans/plan-error";
import { Button } from "@web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { useBuyNumber, type PurchaseResult } from "../api/buy-number";

type Step = { kind: "confirm" } | { kind: "purchasing" } | PurchaseResult;

function ResultView({ result, phone }: { result: PurchaseResult; phone: string }) {
  if (result.kind === "success") {
    return (
      <DialogHeader>
        <CircleCheck className="size-10 text-success" aria-hidden />
        <DialogTitle>{PHONE_TEXT.purchasedTitle}</DialogTitle>
        <DialogDescription>{PHONE_TEXT.purchasedText(formatPhone(result.phoneNumber || phone))}</DialogDescription>
        {result.vapiCreated ? (
          <p className="text-sm text-muted-foreground">{PHONE_TEXT.vapiReady}</p>
        ) : (
          <p role="alert" className="mt-2 flex items-start gap-2 rounded-md border border-warning/50 bg-warning/10 p-3 text-sm">
            <AlertTriangle className="mt-0.5 size-4 shrink-0 text-[oklch(0.55_0.13_70)]" aria-hidden />
            {PHONE_TEXT.vapiCopyFailed}
          </p>
        )}
      </DialogHeader>
    );
  }
  const title = result.kind === "limit" ? PHONE_TEXT.limitReached : PHONE_TEXT.errorTitle;
  const message = result.kind === "limit" ? phoneLimitReachedMessage(result.maxAllowed, result.currentCount) : result.message;
  return (
    <DialogHeader>
      <CircleAlert className="size-10 text-destructive" aria-hidden />
      <DialogTitle>{title}</DialogTitle>
      <DialogDescription role="alert">{message}</DialogDescription>
      {result.kind === "error" && result.upgrade ? (
        <p className="text-sm">
          <UpgradeLink />
        </p>
      ) : null}
    </DialogHeader>
  );
}

type PurchaseDialogProps = {
  /** E.164 number to buy; the dialog is open while it is set. */
  phoneNumber: string | null;
  onClose: () => void;
  /** Where focus goes on close if the Buy button that opened the dialog is gone (the number was bought). */
  fallbackFocus?: () => HTMLElement | null | undefined;
};

export function PurchaseDialog({ phoneNumber, onClose, fallbackFocus }: PurchaseDialogProps) {
  const buy = useBuyNumber();
  const [step, setStep] = useState<Step>({ kind: "confirm" });
  const phone = phoneNumber ? formatPhone(phoneNumber) : "";
  const purchasing = step.kind === "purchasing";

  async function confirm() {
    if (!phoneNumber) return;
    setStep({ kind: "purchasing" });
    setStep(await buy.mutateAsync(phoneNumber));
  }

  function onOpenChange(open: boolean) {
    // A purchase in flight cannot be dismissed: its result must be seen.
    if (open || purchasing) return;
    onClose();
    setStep({ kind: "confirm" });
  }

  return (
    <Dialog open={phoneNumber !== null} onOpenChange={onOpenChange}>
      <DialogContent closeLabel={PHONE_TEXT.close} aria-busy={purchasing} fallbackFocus={fallbackFocus} className="sm:max-w-md">
        {step.kind === "confirm" || step.kind === "purchasing" ? (
          <>
            <DialogHeader>
              <Phone className="size-8 text-primary" aria-hidden />
              <DialogTitle>{PHONE_TEXT.confirmTitle}</DialogTitle>
              <DialogDescription>{PHONE_TEXT.confirmText(phone)}</DialogDescription>
            </DialogHeader>
            <p className="rounded-md bg-muted px-4 py-3 text-center text-lg font-semibold tabular-nums">{phone}</p>
            <DialogFooter>
              <Button variant="outline" onClick={() => onOpenChange(false)} disabled={purchasing}>
                {PHONE_TEXT.cancel}
              </Button>
              <Button onClick={() => void confirm()} disabled={purchasing}>
                {purchasing ? <LoaderCircle className="animate-spin" aria-hidden /> : null}
                {purchasing ? PHONE_TEXT.purchasing : PHONE_TEXT.confirmPurchase}
              </Button>
            </DialogFooter>
          </>
        ) : (
          <>
            <ResultView result={step} phone={phone} />
            <DialogFooter>
              <Button onClick={() => onOpenChange(false)}>{PHONE_TEXT.close}</Button>
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
