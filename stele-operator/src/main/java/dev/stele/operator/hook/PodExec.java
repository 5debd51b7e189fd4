package dev.stele.operator.hook;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * Runs a command in a pod's container through the API server ({@code pods/exec}, a WebSocket
 * speaking the channel protocol), with a timeout: stdout and stderr are kept (the first {@link
 * #KEPT} bytes of each), and the exit code is the one the Status on the error channel gives.
 */
final class PodExec {
  /** Bytes of stdout, and of stderr, kept for the log. */
  static final int KEPT = 4096;

  private final KubernetesClient client;
  private final Clock clock;

  PodExec(KubernetesClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
  }

  /**
   * How one command ended.
   *
   * @param exitCode the command's exit code, or null when it did not end (timeout, refused)
   * @param stdout what it printed, trimmed to {@link #KEPT} bytes
   * @param stderr what it printed on stderr, trimmed likewise
   * @param took from the request to the end
   * @param failure why it did not end, or null
   */
  record Result(
      @Nullable Integer exitCode,
      String stdout,
      String stderr,
      Duration took,
      @Nullable String failure) {
    boolean succeeded() {
      return failure == null && exitCode != null && exitCode == 0;
    }
  }

  Result run(Pod pod, String container, List<String> command, Duration timeout) {
    Instant start = clock.instant();
    Trimmed out = new Trimmed();
    Trimmed err = new Trimmed();
    if (pod.getSpec().getContainers().stream()
        .map(Container::getName)
        .noneMatch(container::equals)) {
      return new Result(null, "", "", Duration.ZERO, "the pod has no container " + container);
    }
    try (ExecWatch watch =
        client
            .pods()
            .inNamespace(pod.getMetadata().getNamespace())
            .withName(pod.getMetadata().getName())
            .inContainer(container)
            .writingOutput(out)
            .writingError(err)
            .exec(command.toArray(String[]::new))) {
      Integer code = watch.exitCode().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return new Result(code, out.text(), err.text(), since(start), null);
    } catch (TimeoutException e) {
      return new Result(
          null, out.text(), err.text(), since(start), "timed out after " + spelled(timeout));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(null, out.text(), err.text(), since(start), "interrupted");
    } catch (ExecutionException | KubernetesClientException e) {
      Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      return new Result(null, out.text(), err.text(), since(start), refusal(cause));
    }
  }

  /** {@code 30s}, {@code 300ms}: as a timeout is written. */
  static String spelled(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
  }

  private Duration since(Instant start) {
    return Duration.between(start, clock.instant());
  }

  /** What the API server said, without the client's request line around it. */
  private static String refusal(Throwable e) {
    if (e instanceof KubernetesClientException k
        && k.getStatus() != null
        && k.getStatus().getMessage() != null) {
      return "the API server refused the exec: " + k.getStatus().getMessage();
    }
    if (e instanceof KubernetesClientException k && k.getCode() == 404) {
      return "the pod is gone";
    }
    return "exec failed: " + e.getMessage();
  }

  /** The first {@link #KEPT} bytes written, and how many more there were. */
  private static final class Trimmed extends OutputStream {
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private long dropped;

    @Override
    public synchronized void write(int b) {
      if (kept.size() < KEPT) {
        kept.write(b);
      } else {
        dropped++;
      }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      int room = Math.min(len, KEPT - kept.size());
      kept.write(b, off, room);
      dropped += len - room;
    }

    synchronized String text() {
      String text = kept.toString(StandardCharsets.UTF_8);
      return dropped == 0 ? text : text + "... (" + dropped + " more bytes)";
    }
  }
}
