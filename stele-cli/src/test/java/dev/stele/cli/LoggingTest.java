package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The command line's text log lines. */
class LoggingTest {
  @Test
  void aTextLineIsWhatLogbacksPatternPrints() {
    LoggerContext context = new LoggerContext();
    PatternLayout pattern = new PatternLayout();
    pattern.setContext(context);
    pattern.setPattern("%level %logger{0}: %msg%n%nopex");
    pattern.start();
    Logging.Line line = new Logging.Line();
    line.setContext(context);
    line.start();

    LoggingEvent[] events = {
      event(
          context, "io.fabric8.kubernetes.client.Config", Level.WARN, "no {} here", null, "token"),
      event(context, "root", Level.ERROR, "failed", new IOException("disk\nfull")),
      event(context, "dev.stele.cli.Main$Inner", Level.INFO, "{} of {}", null, 1, 2),
    };

    for (LoggingEvent event : events) {
      assertThat(line.doLayout(event)).isEqualTo(pattern.doLayout(event));
    }
    assertThat(line.doLayout(events[0]))
        .isEqualTo("WARN Config: no token here" + System.lineSeparator());
    assertThat(line.doLayout(events[1])).doesNotContain("disk");
  }

  private static LoggingEvent event(
      LoggerContext context,
      String logger,
      Level level,
      String message,
      Throwable thrown,
      Object... arguments) {
    return new LoggingEvent(
        LoggingTest.class.getName(), context.getLogger(logger), level, message, thrown, arguments);
  }
}
