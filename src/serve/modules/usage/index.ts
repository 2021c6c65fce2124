import { asReply, defineEndpoint, type Endpoint } from "../../http/endpoint";
import { DU } from "../../http/pricing";
import { issue, ValidationFailed } from "../../http/errors";
import { T } from "../../query/grammar";
import { today } from "../../../market/time";
import { UsageResponse } from "./model";
import { usageReport } from "./service";

export const usageEndpoints: Endpoint[] = [
  defineEndpoint({
    method: "GET",
    path: "/v1/usage",
    price: DU.FREE,
    operationId: "getUsage",
    summary: "Data Unit consumption: period, daily and monthly windows, optional breakdown",
    description:
      "du_consumed and breakdown cover from..to (default: the current period up to today); the remaining figures and projected_eop always describe the current windows. group_by=week labels each week by its Monday; group_by=key breaks the pool down by the user's keys.",
    tag: "Account",
    auth: "required",
    list: {
      fields: {},
      params: {
        from: { type: T.date(), description: "ISO 8601 date; default the start of the current period" },
        to: { type: T.date(), description: "ISO 8601 date; default today" },
        group_by: { type: T.enum(["day", "week", "month", "endpoint", "key"]), description: "key: what each of the user's keys spent (they all draw on one pool)" },
      },
    },
    response: { full: UsageResponse },
    handle: async ({ deps, caller, query }) => {
      // this worker's rows committed first (the breakdowns read the roll-up)
      await deps.ledger.settled();
      const w = deps.ledger.windows(caller);
      const from = query.params.from ?? w.period.start;
      const to = query.params.to ?? today();
      if (from > to) {
        throw new ValidationFailed([issue.custom(["query", "from"], from, "from must not be after to", "value_error", { to })]);
      }
      return asReply(usageReport(deps.accounts, caller, w, { from, to }, query.params.group_by), UsageResponse);
    },
  }),
];
