/**
 * What an operator watches: a dashboard of function errors, API answers and the scan queue, and
 * alarms for jobs that failed for good (dead-letter queue), jobs waiting too long and server errors.
 * Alarms notify an e-mail address when `alarmEmail` is set.
 */
import { Annotations, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as budgets from 'aws-cdk-lib/aws-budgets';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { AppConfig } from './config';
import type { ReceiptFunction } from './receipt-function';

/** The service name AWS Budgets filters Textract's costs by. */
export const TEXTRACT_SERVICE = 'Amazon Textract';

/** A job older than this means the worker is stuck or far behind. */
export const QUEUE_AGE_ALARM_SECONDS = 15 * 60;

export interface MonitoringStackProps extends StackProps {
  readonly config: AppConfig;
  readonly httpApi: apigw.IHttpApi;
  /** The API functions, by route name. */
  readonly apiFunctions: Readonly<Record<string, ReceiptFunction>>;
  readonly analyzeFunction: ReceiptFunction;
  readonly queue: sqs.IQueue;
  readonly deadLetterQueue: sqs.IQueue;
}

export class MonitoringStack extends Stack {
  readonly dashboard: cloudwatch.Dashboard;
  readonly deadLetterAlarm: cloudwatch.Alarm;
  readonly queueAgeAlarm: cloudwatch.Alarm;
  readonly analyzeErrorsAlarm: cloudwatch.Alarm;
  readonly apiServerErrorsAlarm: cloudwatch.Alarm;
  /** Where alarms are sent; only when `alarmEmail` is set. */
  readonly alarmTopic: sns.Topic | undefined;
  /** The monthly Textract budget; only when `budgetEmail` or `alarmEmail` says whom to tell. */
  readonly textractBudget: budgets.CfnBudget | undefined;

  constructor(scope: Construct, id: string, props: MonitoringStackProps) {
    super(scope, id, props);
    const fiveMinutes = Duration.minutes(5);

    const deadLetters = props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
      period: fiveMinutes,
      statistic: cloudwatch.Stats.MAXIMUM,
      label: 'Failed scan jobs (dead-letter queue)',
    });
    const oldestJob = props.queue.metricApproximateAgeOfOldestMessage({
      period: fiveMinutes,
      statistic: cloudwatch.Stats.MAXIMUM,
      label: 'Oldest waiting scan job (s)',
    });
    const waitingJobs = props.queue.metricApproximateNumberOfMessagesVisible({
      period: fiveMinutes,
      statistic: cloudwatch.Stats.MAXIMUM,
      label: 'Waiting scan jobs',
    });
    const analyzeErrors = props.analyzeFunction.function.metricErrors({
      period: fiveMinutes,
      label: 'analyze-receipt',
    });
    const apiErrors = Object.entries(props.apiFunctions).map(([name, fn]) =>
      fn.function.metricErrors({ period: fiveMinutes, label: name }),
    );
    const apiMetric = (metricName: string, label: string, statistic: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/ApiGateway',
        metricName,
        dimensionsMap: { ApiId: props.httpApi.apiId, Stage: '$default' },
        statistic,
        period: fiveMinutes,
        label,
      });
    const api5xx = apiMetric('5xx', 'API 5xx answers', cloudwatch.Stats.SUM);
    const api4xx = apiMetric('4xx', 'API 4xx answers', cloudwatch.Stats.SUM);
    const apiLatency = apiMetric('Latency', 'API latency p90 (ms)', cloudwatch.Stats.percentile(90));

    this.deadLetterAlarm = deadLetters.createAlarm(this, 'DeadLetterAlarm', {
      alarmDescription: 'A scan job failed on every attempt and was moved to the dead-letter queue.',
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.queueAgeAlarm = oldestJob.createAlarm(this, 'QueueAgeAlarm', {
      alarmDescription: `A scan job has waited more than ${QUEUE_AGE_ALARM_SECONDS / 60} minutes: the analyze function is failing or far behind.`,
      threshold: QUEUE_AGE_ALARM_SECONDS,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.analyzeErrorsAlarm = analyzeErrors.createAlarm(this, 'AnalyzeErrorsAlarm', {
      alarmDescription:
        'The analyze function failed invocations (not single jobs) in 2 of the last 3 periods.',
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.apiServerErrorsAlarm = api5xx.createAlarm(this, 'ApiServerErrorsAlarm', {
      alarmDescription: 'The API answered 5 or more server errors in 5 minutes.',
      threshold: 5,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    const alarms = [
      this.deadLetterAlarm,
      this.queueAgeAlarm,
      this.analyzeErrorsAlarm,
      this.apiServerErrorsAlarm,
    ];

    if (props.config.alarmEmail !== undefined) {
      this.alarmTopic = new sns.Topic(this, 'Alarms', {
        displayName: 'Receipt Tracker alarms',
        enforceSSL: true,
      });
      this.alarmTopic.addSubscription(new subscriptions.EmailSubscription(props.config.alarmEmail));
      for (const alarm of alarms) alarm.addAlarmAction(new actions.SnsAction(this.alarmTopic));
    }

    // Each upload may become a Textract call: a budget on that service alone tells someone before
    // the bill does, at 80 % of the month's amount spent and at 100 % forecast.
    const budgetEmail = props.config.budgetEmail ?? props.config.alarmEmail;
    if (budgetEmail !== undefined) {
      const subscribers = [{ subscriptionType: 'EMAIL', address: budgetEmail }];
      this.textractBudget = new budgets.CfnBudget(this, 'TextractBudget', {
        budget: {
          budgetName: 'receipt-tracker-textract',
          budgetType: 'COST',
          timeUnit: 'MONTHLY',
          budgetLimit: { amount: props.config.textractMonthlyBudgetUsd, unit: 'USD' },
          costFilters: { Service: [TEXTRACT_SERVICE] },
        },
        notificationsWithSubscribers: [
          {
            notification: {
              notificationType: 'ACTUAL',
              comparisonOperator: 'GREATER_THAN',
              threshold: 80,
              thresholdType: 'PERCENTAGE',
            },
            subscribers,
          },
          {
            notification: {
              notificationType: 'FORECASTED',
              comparisonOperator: 'GREATER_THAN',
              threshold: 100,
              thresholdType: 'PERCENTAGE',
            },
            subscribers,
          },
        ],
      });
    } else {
      Annotations.of(this).addWarningV2(
        'receipts:no-budget-email',
        'No Textract budget: set budgetEmail (or alarmEmail) in cdk.json to be told by e-mail when Textract spending nears textractMonthlyBudgetUsd.',
      );
    }

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      defaultInterval: Duration.hours(24),
      widgets: [
        [new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms, width: 24, height: 3 })],
        [
          new cloudwatch.GraphWidget({ title: 'Scan queue age (s)', left: [oldestJob], width: 8 }),
          new cloudwatch.GraphWidget({ title: 'Scan jobs', left: [waitingJobs, deadLetters], width: 8 }),
          new cloudwatch.GraphWidget({ title: 'Analyze errors', left: [analyzeErrors], width: 8 }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'API function errors',
            left: apiErrors,
            width: 12,
            stacked: true,
          }),
          new cloudwatch.GraphWidget({
            title: 'API answers',
            left: [api5xx, api4xx],
            right: [apiLatency],
            width: 12,
          }),
        ],
      ],
    });
  }
}
