package dev.stele.s3;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/** Records every HTTP attempt the SDK makes: operation name and status, in order. */
final class RequestLog implements ExecutionInterceptor {
  private final List<String> lines = new ArrayList<>();
  private final long start = System.nanoTime();

  @Override
  public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
    String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
    synchronized (lines) {
      lines.add(
          String.format(
              "%6d ms %s %d",
              (System.nanoTime() - start) / 1_000_000,
              operation,
              context.httpResponse().statusCode()));
    }
  }

  List<String> lines() {
    synchronized (lines) {
      return List.copyOf(lines);
    }
  }

  /** How many attempts of {@code operation} were sent. */
  long count(String operation) {
    return lines().stream().filter(l -> l.contains(" " + operation + " ")).count();
  }

  void clear() {
    synchronized (lines) {
      lines.clear();
    }
  }

  @Override
  public String toString() {
    return String.join("\n", new ArrayList<>(lines()));
  }
}
