import { createFileRoute } from "@tanstack/react-router";
import { CallLogsPage } from "@web/features/call-logs/components/call-logs-page";

export const Route = createFileRoute("/_app/call-logs")({ component: CallLogsPage });
