package dev.stele.operator.schedule;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;

/**
 * A five-field cron expression (minute hour day-of-month month day-of-week) read in UTC, or one of
 * the nicknames {@code @hourly}, {@code @daily}, {@code @weekly}, {@code @monthly}. Its times are
 * whole minutes, so "the latest time not after now" is well defined whatever the clock's seconds.
 */
public final class CronSchedule {
  private static final CronParser PARSER =
      new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

  /** The nicknames, as the five fields they stand for (cron-utils' UNIX definition has none). */
  private static final Map<String, String> NICKNAMES =
      Map.of(
          "@hourly", "0 * * * *",
          "@daily", "0 0 * * *",
          "@midnight", "0 0 * * *",
          "@weekly", "0 0 * * 0",
          "@monthly", "0 0 1 * *",
          "@yearly", "0 0 1 1 *",
          "@annually", "0 0 1 1 *");

  private final String text;
  private final ExecutionTime times;

  private CronSchedule(String text, ExecutionTime times) {
    this.text = text;
    this.times = times;
  }

  /**
   * Parses {@code text}.
   *
   * @throws IllegalArgumentException with a message fit for a status line, if it is not a
   *     five-field expression or a nickname, or names no time that exists (such as 31 February)
   */
  static CronSchedule parse(String text) {
    return parse("spec.schedule", text);
  }

  /**
   * Parses {@code text}, naming it {@code field} in messages (the command line's option).
   *
   * @throws IllegalArgumentException as {@link #parse(String)}
   */
  public static CronSchedule parse(String field, String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException(field + " is empty: write a cron expression");
    }
    String fields = NICKNAMES.getOrDefault(text.strip(), text.strip());
    Cron cron;
    try {
      cron = PARSER.parse(fields).validate();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          field
              + " '"
              + text
              + "' is not a cron expression (five fields: minute hour day-of-month month"
              + " day-of-week, or @hourly, @daily, @weekly, @monthly): "
              + e.getMessage());
    }
    CronSchedule schedule = new CronSchedule(text, ExecutionTime.forCron(cron));
    if (schedule.nextAfter(Instant.EPOCH) == null) {
      throw new IllegalArgumentException(field + " '" + text + "' names no time that exists");
    }
    return schedule;
  }

  /** The first time strictly after {@code instant}, or null if there is none. */
  Instant nextAfter(Instant instant) {
    return times.nextExecution(utc(instant)).map(ZonedDateTime::toInstant).orElse(null);
  }

  /** The latest time not after {@code instant}, or null if there is none. */
  Instant latestAtOrBefore(Instant instant) {
    ZonedDateTime minute = utc(instant).truncatedTo(ChronoUnit.MINUTES);
    if (times.isMatch(minute)) {
      return minute.toInstant();
    }
    Optional<ZonedDateTime> last = times.lastExecution(minute);
    return last.map(ZonedDateTime::toInstant).orElse(null);
  }

  private static ZonedDateTime utc(Instant instant) {
    return instant.atZone(ZoneOffset.UTC);
  }

  @Override
  public String toString() {
    return text;
  }
}
