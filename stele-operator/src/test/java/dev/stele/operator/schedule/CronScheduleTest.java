package dev.stele.operator.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class CronScheduleTest {
  static Instant t(String s) {
    return Instant.parse(s);
  }

  @Test
  void fiveFieldsAreReadInUtc() {
    CronSchedule weekdays = CronSchedule.parse("*/15 2 * * 1-5");
    // 2030-01-01 is a Tuesday.
    assertThat(weekdays.nextAfter(t("2030-01-01T01:59:59Z"))).isEqualTo(t("2030-01-01T02:00:00Z"));
    assertThat(weekdays.nextAfter(t("2030-01-01T02:00:00Z"))).isEqualTo(t("2030-01-01T02:15:00Z"));
    assertThat(weekdays.nextAfter(t("2030-01-01T02:45:00Z"))).isEqualTo(t("2030-01-02T02:00:00Z"));
    // Friday night to Monday.
    assertThat(weekdays.nextAfter(t("2030-01-04T03:00:00Z"))).isEqualTo(t("2030-01-07T02:00:00Z"));
  }

  @Test
  void theLatestTimeNotAfterAnInstantIncludesTheInstantItsMinute() {
    CronSchedule hourly = CronSchedule.parse("0 * * * *");
    assertThat(hourly.latestAtOrBefore(t("2030-01-01T02:00:00Z")))
        .isEqualTo(t("2030-01-01T02:00:00Z"));
    assertThat(hourly.latestAtOrBefore(t("2030-01-01T02:00:42.5Z")))
        .isEqualTo(t("2030-01-01T02:00:00Z"));
    assertThat(hourly.latestAtOrBefore(t("2030-01-01T02:59:59Z")))
        .isEqualTo(t("2030-01-01T02:00:00Z"));
    assertThat(hourly.latestAtOrBefore(t("2030-01-05T17:31:00Z")))
        .isEqualTo(t("2030-01-05T17:00:00Z"));
  }

  @Test
  void nicknamesStandForTheirFields() {
    Instant from = t("2030-01-01T10:30:00Z");
    assertThat(CronSchedule.parse("@hourly").nextAfter(from)).isEqualTo(t("2030-01-01T11:00:00Z"));
    assertThat(CronSchedule.parse("@daily").nextAfter(from)).isEqualTo(t("2030-01-02T00:00:00Z"));
    // The next Sunday.
    assertThat(CronSchedule.parse("@weekly").nextAfter(from)).isEqualTo(t("2030-01-06T00:00:00Z"));
    assertThat(CronSchedule.parse("@monthly").nextAfter(from)).isEqualTo(t("2030-02-01T00:00:00Z"));
  }

  @Test
  void whatIsNotAScheduleIsRefusedWithAMessage() {
    assertThatThrownBy(() -> CronSchedule.parse("every day"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'every day' is not a cron expression");
    assertThatThrownBy(() -> CronSchedule.parse("0 0 * * * *"))
        .hasMessageContaining("is not a cron expression");
    assertThatThrownBy(() -> CronSchedule.parse("61 * * * *")).hasMessageContaining("61");
    assertThatThrownBy(() -> CronSchedule.parse("@sometimes"))
        .hasMessageContaining("is not a cron expression");
    assertThatThrownBy(() -> CronSchedule.parse(" ")).hasMessageContaining("empty");
    assertThatThrownBy(() -> CronSchedule.parse("0 0 31 2 *"))
        .hasMessageContaining("names no time that exists");
  }
}
