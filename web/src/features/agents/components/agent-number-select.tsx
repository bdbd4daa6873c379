// The choice of a free number for an agent (Radix Select, about 16 KB gz). It is loaded only when an
// agent is offered numbers, after the account's numbers arrived: the agent cards, the page's largest
// paint, do not wait for it (decision 035).
import { formatPhone } from "@shared/format";
import type { OwnedPhoneNumber } from "@shared/schemas/phone-numbers";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@web/components/ui/select";

export type AgentNumberSelectProps = {
  id: string;
  value: string;
  onValueChange: (value: string) => void;
  free: readonly OwnedPhoneNumber[];
  placeholder: string;
};

export default function AgentNumberSelect({ id, value, onValueChange, free, placeholder }: AgentNumberSelectProps) {
  return (
    <Select value={value} onValueChange={onValueChange}>
      <SelectTrigger id={id} className="sm:w-52">
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        {free.map((n) => (
          <SelectItem key={n.id} value={String(n.id)}>
            {formatPhone(n.phone_number)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
