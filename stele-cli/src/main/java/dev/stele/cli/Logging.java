package dev.stele.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.LayoutBase;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import ch.qos.logback.core.status.NopStatusListener;
import org.jspecify.annotations.Nullable;

/**
 * The command line's logging: WARN and above, one short line each ({@code LEVEL Logger: message}),
 * to standard error, without stack traces; fabric8's warning that Stele's resources are v1alpha1
 * (VersionUsageUtils) only at ERROR, since it would precede every cluster command's output.
 *
 * <p>Set up in code rather than from a {@code logback.xml}, whose XML parse cost about 0.15 s at
 * every start. Logback finds this class as a service ({@code META-INF/services}) when something
 * first logs, which most commands never do; {@link #use} records the level and format of this run
 * beforehand, or applies them to the running context. {@code -Dlogback.configurationFile} still
 * takes precedence.
 *
 * <p>Concurrency: {@link #use} and {@link #configure} hold one lock.
 */
public final class Logging extends ContextAwareBase implements Configurator {
  private static final Object LOCK = new Object();
  private static Level level = Level.WARN;
  private static boolean json;
  private static @Nullable LoggerContext configured;

  /** Logback's service loader creates it. */
  public Logging() {}

  /** This run logs at {@code level}, as text or (with {@code json}) one JSON object per line. */
  static void use(Level level, boolean json) {
    synchronized (LOCK) {
      Logging.level = level;
      Logging.json = json;
      if (configured != null) {
        apply(configured);
      }
    }
  }

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty("logback.configurationFile") != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    synchronized (LOCK) {
      context.getStatusManager().add(new NopStatusListener());
      ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
      stderr.setContext(context);
      stderr.setName("stderr");
      stderr.setTarget("System.err");
      stderr.setEncoder(encoder(context, json));
      stderr.start();
      context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(stderr);
      context
          .getLogger("io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils")
          .setLevel(Level.ERROR);
      configured = context;
      apply(context);
    }
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  private static void apply(LoggerContext context) {
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(level);
    if (root.getAppender("stderr") instanceof ConsoleAppender<ILoggingEvent> stderr
        && stderr.getEncoder() instanceof JsonEncoder != json) {
      stderr.stop();
      stderr.setEncoder(encoder(context, json));
      stderr.start();
    }
  }

  private static Encoder<ILoggingEvent> encoder(LoggerContext context, boolean json) {
    if (json) {
      // Each event one JSON object on one line (timestamp, level, thread, logger, message, and
      // any exception as a nested object), which log collectors parse without rules.
      JsonEncoder encoder = new JsonEncoder();
      encoder.setContext(context);
      encoder.setWithFormattedMessage(true);
      encoder.setWithMessage(false);
      encoder.setWithArguments(false);
      encoder.setWithContext(false);
      encoder.setWithSequenceNumber(false);
      encoder.setWithNanoseconds(false);
      encoder.start();
      return encoder;
    }
    Line line = new Line();
    line.setContext(context);
    line.start();
    LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
    encoder.setContext(context);
    encoder.setLayout(line);
    encoder.start();
    return encoder;
  }

  /**
   * One event as text: what logback's pattern {@code %level %logger{0}: %msg%n%nopex} prints (the
   * level, the logger's last name, the message; no stack trace), without the pattern's parser and
   * its table of some 60 converters, about 10 ms at the first log of every command.
   */
  static final class Line extends LayoutBase<ILoggingEvent> {
    @Override
    public String doLayout(ILoggingEvent event) {
      String logger = event.getLoggerName();
      return event.getLevel()
          + " "
          + logger.substring(logger.lastIndexOf('.') + 1)
          + ": "
          + event.getFormattedMessage()
          + System.lineSeparator();
    }
  }
}
