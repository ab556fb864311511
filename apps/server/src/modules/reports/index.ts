import { reportOperatorCalls as calls, type ReportName } from '@mw/contract/operator/reports';
import { contractRoute } from '../../http/contract-route';
import { AppError } from '../../lib/errors';
import { defineModule } from '../../platform/module';
import { operatorGuard } from '../../platform/operator';
import { answerOf, csvOf, fileNameOf, xlsxOf } from './export';
import { checkRequest, ReportService } from './report-service';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The back office's reports (issue 34), composed from the domains' services (this module has no
 * tables): GET /api/operator/reports/{cash|bonus-cost|ggr|members|top-depositors}?from&to&granularity&currency&format.
 * Periods are calendar days, weeks (from Monday) or months in the site's time zone: Asia/Bangkok,
 * or Asia/Vientiane on the Lao site (LAOS_MODE), whose default currency is LAK.
 */
export const reportsModule = defineModule({
  name: 'reports',
  routes(app, services) {
    const { config, money, activity, memberDirectory, deposits } = services;
    const timeZone = config.LAOS_MODE ? 'Asia/Vientiane' : 'Asia/Bangkok';
    const siteCurrency = config.LAOS_MODE ? 'LAK' : 'THB';
    const reports = new ReportService({ ledger: money.reports.periods, activity, members: memberDirectory, slipTransfers: () => deposits.slips.creditedTransfers() }, timeZone);
    const preHandler = operatorGuard(config);

    const named: Array<[ReportName, (typeof calls)[keyof typeof calls]]> = [
      ['cash', calls.reportCash],
      ['bonus-cost', calls.reportBonusCost],
      ['ggr', calls.reportGgr],
      ['members', calls.reportMembers],
      ['top-depositors', calls.reportTopDepositors],
    ];
    for (const [name, def] of named) {
      contractRoute(app, def, { preHandler }, async ({ query, reply }) => {
        const request = checkRequest(name, query, siteCurrency);
        const table = await reports.build(request);
        if (request.format === 'json') return answerOf(table);
        const csv = request.format === 'csv';
        return reply
          .header('cache-control', 'no-store')
          .header('content-type', csv ? 'text/csv; charset=utf-8' : XLSX_TYPE)
          .header('content-disposition', `attachment; filename="${fileNameOf(table, csv ? 'csv' : 'xlsx')}"`)
          .send(csv ? csvOf(table) : xlsxOf(table));
      });
    }
    contractRoute(app, calls.reportUnknown, { preHandler }, async () => {
      throw new AppError(400, 'REPORT_UNKNOWN', { names: named.map(([name]) => name) });
    });
  },
});
