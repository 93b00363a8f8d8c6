package dev.atrium.cli;

import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "revenue", mixinStandardHelpOptions = true,
        description = "Your agents' month: calls, gross, your share, and what is pending and paid out.")
final class RevenueCommand implements Callable<Integer> {

    @ParentCommand
    AgentCli root;

    @Option(names = "--month", paramLabel = "YYYY-MM", description = "The month, UTC (default: the current one).")
    String month;

    @Override
    public Integer call() {
        if (month != null) {
            try {
                YearMonth.parse(month);
            } catch (DateTimeParseException e) {
                throw CliException.user("--month must be YYYY-MM, not " + Output.safe(month));
            }
        }
        var revenue = root.client(true).get("v1/me/revenue" + (month == null ? "" : "?month=" + month));
        if (root.json) {
            Output.json(root.env, revenue);
            return ExitCodes.OK;
        }
        var out = root.env.out();
        String currency = revenue.path("currency").asText("USD");
        out.println(root.env.colour("@|bold Revenue for " + revenue.path("month").asText() + "|@"));
        var rows = new ArrayList<List<String>>();
        revenue.path("agents").forEach(a -> rows.add(List.of(a.path("name").asText(), a.path("calls").asText(),
                Output.money(a.path("gross")), Output.money(a.path("developer_share")))));
        rows.add(List.of("total", revenue.path("calls").asText(), Output.money(revenue.path("gross")),
                Output.money(revenue.path("developer_share"))));
        Output.table(root.env, List.of("AGENT", "CALLS", "GROSS", "SHARE"), rows);
        out.println("Pending " + Output.money(revenue.path("pending")) + " " + currency + ", paid out "
                + Output.money(revenue.path("paid_out")) + " " + currency + " (all months).");
        return ExitCodes.OK;
    }
}
