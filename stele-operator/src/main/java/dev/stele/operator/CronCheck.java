package dev.stele.operator;

import dev.stele.operator.schedule.CronSchedule;

/**
 * The operator's own reading of a Schedule's cron expression, for the command line: one parser
 * decides what a Schedule accepts, so {@code schedule create} refuses what the operator would mark
 * FailedValidation.
 */
public final class CronCheck {
  private CronCheck() {}

  /**
   * Checks {@code text}, naming it {@code field} in the message.
   *
   * @throws IllegalArgumentException saying what is wrong, in one line
   */
  public static void check(String field, String text) {
    CronSchedule.parse(field, text);
  }
}
