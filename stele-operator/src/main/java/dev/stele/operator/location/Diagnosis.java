package dev.stele.operator.location;

import dev.stele.k8s.api.Provider;
import dev.stele.operator.store.Place;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;

/** Turns a failure to reach a location into one line that says what to change. */
final class Diagnosis {
  private Diagnosis() {}

  static String of(Place place, IOException e) {
    String all = chain(e);
    String where = place.toString();
    if (all.contains("InvalidAccessKeyId") || all.contains("SignatureDoesNotMatch")) {
      return "the server refused the credentials for "
          + where
          + " (access key unknown or secret wrong): correct the Secret named in spec.credential";
    }
    if (all.contains("NoSuchBucket")) {
      return "bucket "
          + place.bucket()
          + " does not exist at "
          + endpoint(place)
          + ": create it, or correct spec.objectStorage.bucket";
    }
    if (all.contains(": 403") || all.contains("AccessDenied")) {
      return "access to "
          + where
          + " denied (403): give the credentials in spec.credential s3:GetBucketVersioning,"
          + " s3:GetBucketObjectLockConfiguration, s3:ListBucket, s3:GetObject and s3:PutObject";
    }
    if (hasCause(e, UnknownHostException.class)
        || hasCause(e, ConnectException.class)
        || hasCause(e, HttpConnectTimeoutException.class)
        || all.contains("Unable to execute HTTP request")) {
      return "cannot reach "
          + endpoint(place)
          + " ("
          + rootMessage(e)
          + "): check config.s3Url and that the operator's network may reach it";
    }
    return where + ": " + e.getMessage();
  }

  private static String endpoint(Place place) {
    return place
        .config()
        .getOrDefault("s3Url", Provider.S3.value().equals(place.provider()) ? "AWS S3" : "disk");
  }

  private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
  }

  private static String chain(Throwable e) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      b.append(t.getMessage()).append(" | ");
    }
    return b.toString();
  }
}
